/**
 * A host whose thread was blocked past its session lease (no renewal could run) does not act on a write once another
 * host took the session over and moved on, even when the new owner kept no records of the turn. Real processes and
 * real time, no simulated clock: host A's tool blocks A's thread by running host B (`stale-host-b.ts`)
 * synchronously; B resumes the session once A's lease lapsed, finishes turn 1 (replaying A's first write, making the
 * second) and runs turn 2, keeping no records of turn 1. Here the renewal that came due while A was blocked runs as
 * soon as A's thread is free and stops A's run first; the lease check before each write
 * (`session-lease.test.ts`) is the backstop for a store whose renewal answers later than the write is asked for.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSandboxPool } from '@askloop/interpreter';
import { createScriptedProvider } from '@askloop/providers';
import { defineTool, defineToolPack } from '@askloop/tools';
import { afterAll, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { definePlugin } from '../src/plugin/plugin.ts';
import { createSqliteTranscriptStore } from '../src/store/sqlite-transcript-store.ts';
import { envelope } from './test-plugin.ts';

const pool = createSandboxPool({ workers: 2 });
const dir = mkdtempSync(join(tmpdir(), 'askloop-stale-fence-'));
afterAll(async () => {
  await pool.close();
  rmSync(dir, { recursive: true, force: true });
});
const program = (...lines: string[]) => envelope(['command', ...lines.map((line) => `  ${line}`), 'endcommand'].join('\n'));

it("a host whose thread was blocked past its lease does not repeat a write the new owner made, the records gone", async () => {
  const file = join(dir, 'fence.db');
  const effects = join(dir, 'effects.log');
  appendFileSync(effects, '');
  const hostB = fileURLToPath(new URL('./stale-host-b.ts', import.meta.url));
  let childOutput = '';
  const plugin = definePlugin({
    name: 'test',
    specificationVersion: 'v1',
    providers: { scripted: createScriptedProvider({ models: { m: [program('set a = tool.test.Bump("k")', 'set p = tool.test.Pause()', 'set b = tool.test.Bump("k2")', 'emit "one"')] } }) },
    toolPacks: [
      defineToolPack('test', [
        defineTool({ name: 'tool.test.Pause', description: 'Waits.', args: [], returns: 'nil' }, () => {
          // Blocks this host's thread (no renewal can run) while host B takes the session over and moves on.
          childOutput = execFileSync(process.execPath, ['--no-node-snapshot', '--conditions=@askloop/source', hostB, file, effects, 'fenced'], { encoding: 'utf8', timeout: 50_000 });
          return null;
        }),
        defineTool({ name: 'tool.test.Bump', description: 'Counts.', args: [{ name: 'key', type: 'string' }], returns: 'int', effect: 'write' }, (args) => {
          appendFileSync(effects, `A ${String(args.key)}\n`);
          return 1;
        }),
      ]),
    ],
  });
  const hostA = createAskLoop({ plugins: [plugin], store: createSqliteTranscriptStore(file), pool, sessionLeaseMs: 300 });
  const outcome = await hostA.run({ agent: { name: 'worker', model: 'scripted:m', policy: { allow: ['tool.test.*'] } }, task: 't', sid: 'fenced' }).then(
    (result) => ({ status: result.status }),
    (error: { code?: string }) => ({ code: error.code }),
  );
  await hostA.close();
  expect(JSON.parse(childOutput)).toEqual({ status: 'DONE', turns: 2 });
  // A's step ends with its lease lost; each write acted once: k by A, k2 (turn 1, re-run) and j (turn 2) by B.
  expect(outcome).toEqual({ code: 'LOOP_LEASE_LOST' });
  expect(readFileSync(effects, 'utf8').trim().split('\n')).toEqual(['A k', 'B k2', 'B j']);
}, 60_000);
