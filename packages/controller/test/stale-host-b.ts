/**
 * Host B of `stale-host-fence.test.ts`, run as a child process while host A's thread is blocked: resumes the session
 * on the SQLite file once A's lease has lapsed (finishing turn 1, then turn 2), logging its write calls, then exits.
 * It keeps no idempotence records of earlier turns (`idempotenceRetentionMs: 0`), so only A's lease check can keep A
 * from acting again.
 */
import { appendFileSync } from 'node:fs';
import { createScriptedProvider } from '@askloop/providers';
import { defineTool, defineToolPack } from '@askloop/tools';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { definePlugin } from '../src/plugin/plugin.ts';
import { createSqliteTranscriptStore } from '../src/store/sqlite-transcript-store.ts';
import { envelope } from './test-plugin.ts';

const [file, effects, sid] = process.argv.slice(2) as [string, string, string];
const program = (...lines: string[]) => envelope(['command', ...lines.map((line) => `  ${line}`), 'endcommand'].join('\n'));
const plugin = definePlugin({
  name: 'test',
  specificationVersion: 'v1',
  providers: { scripted: createScriptedProvider({ models: { m: [program('set c = tool.test.Bump("j")', 'emit "<<<LOOP:DONE>>> two"')] } }) },
  toolPacks: [
    defineToolPack('test', [
      defineTool({ name: 'tool.test.Pause', description: 'Waits.', args: [], returns: 'nil' }, () => null),
      defineTool({ name: 'tool.test.Bump', description: 'Counts.', args: [{ name: 'key', type: 'string' }], returns: 'int', effect: 'write' }, (args) => {
        appendFileSync(effects, `B ${String(args.key)}\n`);
        return 1;
      }),
    ]),
  ],
});
const loop = createAskLoop({ plugins: [plugin], store: createSqliteTranscriptStore(file), idempotenceRetentionMs: 0 });
const result = await loop.resume(sid);
process.stdout.write(`${JSON.stringify({ status: result.status, turns: result.turns })}\n`);
await loop.close();
