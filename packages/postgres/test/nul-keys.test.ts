/**
 * A key holding U+0000 on a real server. PostgreSQL's text cannot hold the
 * character: such a key failed as `STORE_FAILED` ("invalid byte sequence for
 * encoding UTF8: 0x00"), and inside a worker's step it aborted the step's
 * transaction, so a program that handled the tool's error still lost the
 * whole step. Now it is refused before any statement, as on SQLite: the
 * built-in tools tell the model to use a key without the character, a
 * plugin's tools get the stores' `STORE_ARGUMENT_INVALID`, and a value may
 * still hold it.
 */
import { sampleSession } from '@askloop/controller/testing';
import { createPolicy, createSafeToolPacks, createToolHost, createToolRegistry, defineTool, defineToolPack, isToolError, type ToolStores, type ToolValue } from '@askloop/tools';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { applyPostgresMigrations } from '../src/migrate/postgres-migrations.ts';
import { createSessionQueue, enqueueSession } from '../src/queue/session-queue.ts';
import { createPostgresToolStores } from '../src/tools/postgres-tool-stores.ts';
import { createPostgresTranscriptStore } from '../src/transcript/postgres-transcript-store.ts';
import { createLeaseBoundStores } from '../src/worker/lease-bound-stores.ts';
import { createTestDatabase, type TestDatabase } from './support/test-database.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

/** A plugin's pack keeping state through `context.stores` (its own view of them). */
const kvPack = defineToolPack('kv', [
  defineTool({ name: 'tool.kv.Put', description: 'Sets a key.', args: [{ name: 'key', type: 'string' }, { name: 'value', type: 'any' }], returns: 'list', effect: 'write' }, async (args, context) => {
    const memory = context.stores.memory!;
    const outcome = await memory.cas(args.key as string, (await memory.get(args.key as string)).version, args.value as ToolValue);
    return [outcome.ok, outcome.version];
  }),
]);

function hostOn(stores: ToolStores, session: string) {
  const registry = createToolRegistry([...createSafeToolPacks(), kvPack]);
  return createToolHost({ registry, policy: createPolicy({ allow: ['**'], grants: ['*:*'] }), stores, session, turn: 1 });
}

/** The code and message the call rejects with. */
async function failure(call: Promise<unknown>): Promise<[string | undefined, string]> {
  try {
    await call;
  } catch (error) {
    return [isToolError(error) ? error.code : undefined, (error as Error).message];
  }
  throw new Error('the call did not fail');
}

it('the built-in tools refuse a key holding U+0000 as a bad argument that says how to fix it; values may hold it', async () => {
  const pools = await database.schema();
  await applyPostgresMigrations(pools({ max: 1 }));
  const host = hostOn(createPostgresToolStores(pools()), 'sid-1');
  expect(await failure(host.call('tool.memory.CAS', ['/notes/a\u0000b', 0, 'v']))).toEqual([
    'TOOL_ARGUMENT_INVALID',
    'tool.memory.CAS: key holds the NUL character (U+0000) at index 8, which no store keeps; use a key without the NUL character (pack memory)',
  ]);
  expect((await failure(host.call('tool.scratch.Get', ['a\u0000'])))[0]).toBe('TOOL_ARGUMENT_INVALID');
  expect(await host.call('tool.memory.CAS', ['/notes/a', 0, { 'k\u0000': 'a\u0000b' }])).toEqual([true, 1]);
  expect(await host.call('tool.memory.Get', ['/notes/a'])).toEqual([{ 'k\u0000': 'a\u0000b' }, 1]);
});

it("in a worker's step, a plugin's key holding U+0000 is refused before any statement, and the step's later writes commit", async () => {
  const sid = 'nul-step';
  const pools = await database.schema();
  await applyPostgresMigrations(pools({ max: 1 }));
  const pool = pools();
  await createPostgresTranscriptStore(pool).createSession(sampleSession(sid));
  await enqueueSession(pool, sid);
  const stores = createLeaseBoundStores(pools());
  const binding = stores.bind((await createSessionQueue(pool).acquire('host'))!);
  const host = hostOn(stores.toolStores, sid);
  const [code, message] = await failure(host.call('tool.kv.Put', ['a\u0000', 1]));
  expect([code, message]).toEqual(['STORE_ARGUMENT_INVALID', expect.stringMatching(/^tool\.kv\.Put: memory\.get\(\): key must be text without the NUL character \(U\+0000\).* at index 1: use a key without the NUL character \(pack kv\)$/)]);
  // The program handled the error and went on: its transaction was not aborted by a failed statement.
  expect(await host.call('tool.kv.Put', ['a', 2])).toEqual([true, 1]);
  await binding.commit({ status: 'RUNNING', turns: 1 });
  expect(await createPostgresToolStores(pool).memory.get('pack:kv/a')).toEqual({ value: 2, version: 1 });
});
