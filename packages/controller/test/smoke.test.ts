import { createScriptedProvider } from '@askloop/providers';
import { createSafeToolPacks } from '@askloop/tools';
import { expect, it } from 'vitest';
import { createAskLoop, createMemoryTranscriptStore, definePlugin } from '../src/index.ts';

const env = (actions: string) => ['<<<NSENV:V4:START>>>', '<<<NSENV:V4:USERDATA>>>', '{}', '<<<NSENV:V4:ACTIONS>>>', actions, '<<<NSENV:V4:END>>>', 'after end'].join('\n');

it('runs two turns to DONE', async () => {
  const events: string[] = [];
  const plugin = definePlugin({
    name: 'test',
    specificationVersion: 'v1',
    providers: { scripted: createScriptedProvider({ models: { a: [env('command\n  emit "hi"\nendcommand'), env('command\n  emit "<<<LOOP:DONE>>> ok " + userdata["subject"]\nendcommand')] } }) },
    toolPacks: createSafeToolPacks(),
  });
  const loop = createAskLoop({ plugins: [plugin], store: createMemoryTranscriptStore(), onEvent: (e) => events.push(e.type) });
  const result = await loop.run({ agent: { name: 'a', model: 'scripted:a' }, task: 'x' });
  console.log(JSON.stringify(result), events.join(','));
  expect(result.status).toBe('DONE');
  expect(result.result).toBe('ok x');
  const replay = await loop.replay(result.sid);
  expect(replay.matched).toBe(true);
  await loop.close();
});
