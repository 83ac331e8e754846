/**
 * A run's session id must be one every store holds (store-keys.ts): one with
 * U+0000, a line break or a lone surrogate is refused with
 * `LOOP_ARGUMENT_INVALID` before the model is made or anything is stored —
 * on the memory and SQLite stores alike (PostgreSQL runs the store table in
 * its own package) — while ordinary ids, the controller's UUIDs among them,
 * run as before.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandboxPool } from '@askloop/interpreter';
import { createScriptedProvider, type Provider } from '@askloop/providers';
import { afterAll, describe, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { definePlugin } from '../src/plugin/plugin.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import { createSqliteTranscriptStore } from '../src/store/sqlite-transcript-store.ts';
import type { TranscriptStore } from '../src/store/transcript-store.ts';
import { envelope } from './test-plugin.ts';

const pool = createSandboxPool({ workers: 1 });
const dir = mkdtempSync(join(tmpdir(), 'askloop-sids-'));
afterAll(async () => {
  await pool.close();
  rmSync(dir, { recursive: true, force: true });
});

const done = envelope(['command', '  emit "<<<LOOP:DONE>>> ok"', 'endcommand'].join('\n'));
const agent = { name: 'worker', model: 'scripted:m' };

/** A loop on `store` whose scripted provider records every model it makes. */
function loopOn(store: TranscriptStore, createId?: () => string) {
  const made: string[] = [];
  const scripted = createScriptedProvider({ models: { m: [done, done, done] } });
  const counting: Provider = { ...scripted, name: 'scripted', languageModel: (id, options) => (made.push(id), scripted.languageModel(id, options)) };
  const loop = createAskLoop({ plugins: [definePlugin({ name: 'models', specificationVersion: 'v1', providers: { scripted: counting } })], store, pool, ...(createId === undefined ? {} : { createId }) });
  return { loop, made };
}

const stores: [string, () => TranscriptStore][] = [
  ['memory', createMemoryTranscriptStore],
  ['SQLite', () => createSqliteTranscriptStore(join(dir, `${Math.random().toString(36).slice(2)}.db`))],
];

describe.each(stores)('session ids of a run: %s store', (_name, makeStore) => {
  it('refuses a sid with U+0000, a line break or a lone surrogate, naming it, storing nothing and making no model', async () => {
    const store = makeStore();
    const { loop, made } = loopOn(store);
    for (const [sid, problem] of [
      ['a\u0000b', 'must not contain control characters, got U+0000 at index 1'],
      ['two\nlines', 'must not contain control characters, got U+000A at index 3'],
      ['half\ud83d', 'must be well-formed Unicode, got a lone surrogate U+D83D at index 4'],
    ] as const) {
      const run = loop.run({ agent, task: 'x', sid });
      await expect(run).rejects.toMatchObject({ code: 'LOOP_ARGUMENT_INVALID' });
      await expect(run).rejects.toThrow(`options.sid: the session id ${JSON.stringify(sid)} ${problem}`);
      await expect(loop.create({ agent, task: 'x', sid })).rejects.toMatchObject({ code: 'LOOP_ARGUMENT_INVALID' });
    }
    expect(await store.listSessions()).toEqual([]);
    expect(made).toEqual([]);
    await loop.close();
  });

  it('refuses an id createId made that no store holds', async () => {
    const store = makeStore();
    const { loop, made } = loopOn(store, () => 'tab\tid');
    await expect(loop.run({ agent, task: 'x' })).rejects.toThrow('createId: the session id "tab\\tid" must not contain control characters, got U+0009 at index 3');
    expect(await store.listSessions()).toEqual([]);
    expect(made).toEqual([]);
    await loop.close();
  });

  it('runs sessions with the default UUIDs and with chosen ids of letters, spaces and emoji', async () => {
    const store = makeStore();
    const { loop } = loopOn(store);
    expect(await loop.run({ agent, task: 'x' })).toMatchObject({ status: 'DONE', sid: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(await loop.run({ agent, task: 'x', sid: 'séance 日本 🚀' })).toMatchObject({ status: 'DONE', sid: 'séance 日本 🚀' });
    await loop.close();
  });
});
