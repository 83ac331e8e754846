/**
 * A sandbox worker for tests: the real `worker-main.ts`, plus a line in
 * `askloop-cancels-<host pid>` under the temp folder for every `cancel`
 * message the host sends it, so a test can see which messages a run cost.
 */
import { appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const file = join(tmpdir(), `askloop-cancels-${process.ppid}`);
process.on('message', (message: { type?: string }) => {
  if (message?.type === 'cancel') appendFileSync(file, 'cancel\n');
});
await import('../worker-main.ts');
