/**
 * `pnpm bench`: what the loop costs per turn on top of the sandboxed run it
 * wraps. Baseline: checking and running the same one-line program through the
 * interpreter port alone (parse, check, a fresh isolate context). Tasks: a
 * whole one-turn session through `createAskLoop` (scripted model, memory
 * store, every record saved at each phase), and a three-turn session.
 */
import { createSandboxPool } from '@askloop/interpreter';
import { createScriptedProvider } from '@askloop/providers';
import { createSafeToolPacks } from '@askloop/tools';
import { runSuite } from '../../../scripts/bench-harness.ts';
import { createAskLoop, createDefaultInterpreter, createMemoryTranscriptStore, definePlugin } from '../src/index.ts';

const program = (line: string) => `command\n  ${line}\nendcommand`;
const envelope = (actions: string) => `<<<NSENV:V4:START>>>\n<<<NSENV:V4:USERDATA>>>\n{}\n<<<NSENV:V4:ACTIONS>>>\n${actions}\n<<<NSENV:V4:END>>>\n`;
const done = program('emit "<<<LOOP:DONE>>> " + tool.str.ToUpper(userdata["subject"])');

const pool = createSandboxPool({ workers: 1 });
const interpreter = createDefaultInterpreter(pool);
const plugin = definePlugin({
  name: 'bench',
  specificationVersion: 'v1',
  providers: {
    scripted: createScriptedProvider({
      models: {
        one: () => envelope(done),
        three: ({ index }) => envelope(index % 3 === 2 ? done : program(`emit "step ${index}"`)),
      },
    }),
  },
  toolPacks: createSafeToolPacks(),
});
const loop = createAskLoop({ plugins: [plugin], store: createMemoryTranscriptStore(), pool, interpreter });
const catalogHost = { get: () => undefined, names: () => [] };

let sink = 0;
await runSuite(
  'One session through the loop vs the sandboxed run alone',
  {
    name: 'baseline: prepare + execute the program (interpreter port)',
    run: async () => {
      const prepared = await interpreter.prepare(program('emit "<<<LOOP:DONE>>> " + "X"'), { catalog: catalogHost });
      if (prepared.ok) sink += (await interpreter.execute(prepared.prepared)).output.length;
    },
  },
  [
    { name: 'createAskLoop: a 1-turn session (DONE)', run: async () => (sink += (await loop.run({ agent: { name: 'a', model: 'scripted:one' }, task: 'x' })).turns) },
    { name: 'createAskLoop: a 3-turn session', run: async () => (sink += (await loop.run({ agent: { name: 'a', model: 'scripted:three' }, task: 'x' })).turns) },
  ],
);
await loop.close();
await pool.close();
if (sink === 0) console.log('(nothing measured)');
