/**
 * A session `askloop mcp serve --agent … --script … --db FILE` paused (its
 * agent on a `scripted:ID` model, its replies in the `{"ID": [...]}` form)
 * can be finished with `askloop approve SID --db FILE --script FILE`, as the
 * MCP guide says: the continuation reads both forms of the script.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAskLoop, createSqliteTranscriptStore, definePlugin } from '@askloop/controller';
import { createScriptedProvider } from '@askloop/providers';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { envelope } from './envelope-reply.ts';

const temp = mkdtempSync(join(tmpdir(), 'askloop-approve-serve-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

// A v1 agent: the first turn waits for approval, the next one finishes.
const REPLIES = [envelope('emit "[[loop:await]]"'), envelope('emit "written"', 'emit "[[loop:done]]"')];
const WRITER = { name: 'writer', model: 'scripted:writer', dialect: 'v1' as const };

/** A session of `writer` paused at its first turn in a sessions file, as `mcp serve --db` leaves one. */
async function pausedSession(db: string): Promise<string> {
  const store = createSqliteTranscriptStore(db);
  const plugin = definePlugin({ name: 'serve', specificationVersion: 'v1', providers: { scripted: createScriptedProvider({ models: { writer: REPLIES.slice(0, 1) } }) } });
  const loop = createAskLoop({ plugins: [plugin], store });
  try {
    const result = await loop.run({ agent: WRITER, task: 'write it' });
    expect(result).toMatchObject({ status: 'PAUSED' });
    return result.sid;
  } finally {
    await loop.close();
    await store.close();
  }
}

describe('approve of a session mcp serve paused, with its --script', () => {
  for (const [form, script] of [
    ['{"ID": [replies]}', { writer: REPLIES }],
    ['an array of replies', REPLIES],
  ] as const) {
    it(`finishes it with the script as ${form}`, async () => {
      const db = join(temp, `${form.length}.db`);
      const sid = await pausedSession(db);
      const file = join(temp, `${form.length}.json`);
      writeFileSync(file, JSON.stringify(script));
      const io = captureIo({ cwd: temp });
      expect(await main(['approve', sid, '--db', db, '--script', file, '--json'], io), io.err).toBe(0);
      expect(JSON.parse(io.out)).toMatchObject({ status: 'DONE' });
    });
  }
});

describe('a --script of neither form', () => {
  it.each([
    [[1, 2], 'entry [0] is not a string; every entry is one whole model reply'],
    [{ writer: ['ok', 1] }, '"writer" entry [1] is not a string; every entry is one whole model reply'],
    [{ writer: 'one reply' }, '"writer" is not a list of replies'],
    [7, 'expected a JSON array of reply strings, or {"MODEL_ID": [reply strings]}'],
  ])('%j names its first bad entry (CLI_SCRIPT_INVALID)', async (script, said) => {
    const db = join(temp, 'bad-script.db');
    const sid = await pausedSession(db);
    const file = join(temp, 'bad-script.json');
    writeFileSync(file, JSON.stringify(script));
    const io = captureIo({ cwd: temp });
    expect(await main(['approve', sid, '--db', db, '--script', file, '--json'], io)).toBe(1);
    expect(JSON.parse(io.out).error).toMatchObject({ code: 'CLI_SCRIPT_INVALID', message: expect.stringContaining(said) });
  });
});
