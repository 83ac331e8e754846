/**
 * `askloop replay` of a session whose agent ran on a scripted model the
 * replaying command does not have (a session `askloop mcp serve --script`
 * stored): the recorded replies stand in for the model, so it matches without
 * the script (it used to stop at LOOP_PROVIDER_NOT_FOUND).
 */
import { describe, expect, it } from 'vitest';
import { createAskLoop, definePlugin } from '@askloop/controller';
import { createScriptedProvider } from '@askloop/providers';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { envelope } from './envelope-reply.ts';
import { tempFolder } from './temp-folder.ts';
import { sessionsFileIn } from './view-seed.ts';

const temp = tempFolder('replay-script');

describe('askloop replay without the script the session ran on', () => {
  it('matches from the recorded replies', async () => {
    const { db, store } = sessionsFileIn(temp, 'serve.db');
    const plugin = definePlugin({ name: 'serve', specificationVersion: 'v1', providers: { scripted: createScriptedProvider({ models: { writer: [envelope('emit "drafted"'), envelope('emit "<<<LOOP:DONE>>> written"')] } }) } });
    const loop = createAskLoop({ plugins: [plugin], store });
    const result = await loop.run({ agent: { name: 'writer', model: 'scripted:writer' }, task: 'write it' });
    await loop.close();
    await store.close();
    expect(result).toMatchObject({ status: 'DONE', turns: 2 });
    const io = captureIo({ cwd: temp });
    expect(await main(['replay', result.sid, '--db', db], io), io.err).toBe(0);
    expect(io.out).toBe(`replay of ${result.sid}: matched (2 turns)\n`);
  });
});
