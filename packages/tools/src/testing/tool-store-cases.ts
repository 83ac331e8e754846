/**
 * The tool store conformance table: plain cases `{ name, run(makeStores) }`
 * using only `node:assert`, so every implementation of the memory, scratch
 * and idempotence stores runs the same table with its own test runner:
 *
 * ```ts
 * for (const testCase of toolStoreCases) it(testCase.name, () => testCase.run((clock) => myFixture(clock)));
 * ```
 *
 * `makeStores` returns a fixture over new, empty stores whose TTLs and
 * timestamps follow the given manual clock; `connect()` opens another
 * connection to the same data (a second host), so races between
 * connections are part of the contract. Every case closes its fixture.
 * A store without the optional `forgetBefore` skips the case whose name
 * holds `forgetBefore`.
 */
import assert from 'node:assert/strict';
import { canonicalJson } from '../spec/canonical-json.ts';
import type { ToolValue } from '../spec/tool-value.ts';
import type { IdempotenceKey, ToolStores } from '../stores/store-types.ts';
import { defineStoreCase as define, type ToolStoreCase } from './define-store-case.ts';
import { toolStoreArgumentCases } from './tool-store-argument-cases.ts';

export type { MakeToolStores, ToolStoreCase, ToolStoreFixture } from './define-store-case.ts';

const key: IdempotenceKey = { session: 's1', turn: 1, callIndex: 0, tool: 'tool.demo.bump', argumentsJson: '{"args":{},"rest":[]}' };

/** Every case. */
export const toolStoreCases: readonly ToolStoreCase[] = [
  define('memory: an absent key reads as version 0 and is created with expected version 0', async ({ stores: { memory } }) => {
    assert.deepEqual(await memory.get('/ingest/queue/x'), { value: null, version: 0 });
    assert.deepEqual(await memory.cas('/ingest/queue/x', 0, 'taken'), { ok: true, version: 1 });
    assert.deepEqual(await memory.get('/ingest/queue/x'), { value: 'taken', version: 1 });
  }),
  define('memory: a stale version is refused and the current one reported', async ({ stores: { memory } }) => {
    await memory.cas('k', 0, 1);
    await memory.cas('k', 1, 2);
    assert.deepEqual(await memory.cas('k', 1, 3), { ok: false, version: 2 });
    assert.deepEqual(await memory.cas('k', 0, 3), { ok: false, version: 2 });
    assert.deepEqual(await memory.cas('absent', 4, 3), { ok: false, version: 0 });
    assert.deepEqual(await memory.get('k'), { value: 2, version: 2 });
  }),
  define('memory: values come back as plain JSON (nested, unicode, numbers, nil), keys sorted', async ({ stores: { memory } }) => {
    const value: ToolValue = { b: [1, 2.5, -3e-7, true, null], a: { 'é ✓ 𝄞': 'line\nbreak "quoted" \\ \u0000 nul' }, empty: {} };
    await memory.cas('json', 0, value);
    const read = await memory.get('json');
    assert.deepEqual(read, { value, version: 1 });
    assert.deepEqual(Object.keys(read.value as object), ['a', 'b', 'empty']);
    await memory.cas('nil', 0, null);
    assert.deepEqual(await memory.get('nil'), { value: null, version: 1 });
  }),
  define('values holding U+0000 in strings and map keys come back as they were: memory, scratch, idempotence results', async ({ stores: { memory, scratch, idempotence } }) => {
    // Stored as canonical JSON, which writes the character as \u0000: text PostgreSQL keeps (a raw one it refuses).
    const value: ToolValue = { 'nul\u0000key': ['\u0000', 'a\u0000b\u0000'], plain: '\u0000\u0000' };
    assert.deepEqual(await memory.cas('nul-value', 0, value), { ok: true, version: 1 });
    assert.deepEqual(await memory.get('nul-value'), { value, version: 1 });
    assert.deepEqual(await memory.cas('nul-value', 1, 'x\u0000'), { ok: true, version: 2 });
    assert.deepEqual(await memory.get('nul-value'), { value: 'x\u0000', version: 2 });
    assert.deepEqual(await scratch.putCas('s1', 'nul-value', 0, value, 60_000), { ok: true, version: 1 });
    assert.deepEqual(await scratch.get('s1', 'nul-value'), { value, version: 1 });
    const argumentsJson = canonicalJson({ args: { key: 'a\u0000b' }, rest: [] });
    assert.deepEqual(await idempotence.claim({ ...key, argumentsJson }), { state: 'claimed' });
    const recorded = await idempotence.record({ ...key, argumentsJson, result: value });
    assert.deepEqual([recorded.argumentsJson, recorded.result], [argumentsJson, value]);
    assert.deepEqual(await idempotence.lookup(key.session, key.turn, key.callIndex), recorded);
  }),
  define('values holding lone surrogates in strings and map keys come back as they were: memory, scratch, idempotence results', async ({ stores: { memory, scratch, idempotence } }) => {
    // Canonical JSON writes a lone surrogate as an escape (\ud800), which both backends keep: only names must be well-formed.
    const value: ToolValue = { 'k\uD800': ['\uDC00', 'x\uD83Dy', '\uDE00\uD83D'], 'k\uFFFD': '\uDBFF', pair: '\u{1F600}' };
    assert.deepEqual(await memory.cas('lone-value', 0, value), { ok: true, version: 1 });
    assert.deepEqual(await memory.get('lone-value'), { value, version: 1 });
    assert.deepEqual(await scratch.putCas('s1', 'lone-value', 0, value, 60_000), { ok: true, version: 1 });
    assert.deepEqual(await scratch.get('s1', 'lone-value'), { value, version: 1 });
    const argumentsJson = canonicalJson({ args: { key: 'a\uD800' }, rest: [] });
    assert.deepEqual(await idempotence.claim({ ...key, argumentsJson }), { state: 'claimed' });
    const recorded = await idempotence.record({ ...key, argumentsJson, result: value });
    assert.deepEqual([recorded.argumentsJson, recorded.result], [argumentsJson, value]);
    assert.deepEqual(await idempotence.lookup(key.session, key.turn, key.callIndex), recorded);
  }),
  define('well-formed keys and sessions that differ are kept apart: U+FFFD, astral characters whose halves share a high surrogate, the bare prefix', async ({ stores: { memory, scratch } }) => {
    const keys = ['a\uFFFD', 'a\u{1F600}', 'a\u{1F601}', 'a'];
    for (const [index, name] of keys.entries()) {
      assert.deepEqual(await memory.cas(name, 0, index), { ok: true, version: 1 });
      assert.deepEqual(await scratch.putCas(name, name, 0, index, 60_000), { ok: true, version: 1 });
    }
    for (const [index, name] of keys.entries()) {
      assert.deepEqual(await memory.get(name), { value: index, version: 1 });
      assert.deepEqual(await scratch.get(name, name), { value: index, version: 1 });
    }
  }),
  define('memory: of two connections, the one holding a stale version loses', async ({ stores, connect }) => {
    const second = await connect();
    const seen = await stores.memory.get('k');
    assert.deepEqual(await second.memory.cas('k', seen.version, 'second'), { ok: true, version: 1 });
    assert.deepEqual(await stores.memory.cas('k', seen.version, 'first'), { ok: false, version: 1 });
    assert.deepEqual(await stores.memory.get('k'), { value: 'second', version: 1 });
  }),
  define('memory: concurrent compare-and-swaps from two connections — one winner per version, no lost increment', async ({ stores, connect }) => {
    const second = await connect();
    const racers = Array.from({ length: 8 }, (_, index) => (index % 2 === 0 ? stores : second).memory.cas('race', 0, `racer-${index}`));
    const outcomes = await Promise.all(racers);
    assert.equal(outcomes.filter((outcome) => outcome.ok).length, 1);
    const increment = async (target: ToolStores): Promise<void> => {
      for (;;) {
        const current = await target.memory.get('counter');
        const next = typeof current.value === 'number' ? current.value + 1 : 1;
        if ((await target.memory.cas('counter', current.version, next)).ok) return;
      }
    };
    const rounds = 10;
    await Promise.all(Array.from({ length: rounds * 2 }, (_, index) => increment(index % 2 === 0 ? stores : second)));
    assert.deepEqual(await stores.memory.get('counter'), { value: rounds * 2, version: rounds * 2 });
  }),
  define('scratch: an entry expires at its TTL by the store\'s clock', async ({ stores: { scratch }, clock }) => {
    assert.deepEqual(await scratch.putCas('s1', 'cursor', 0, 5, 10_000), { ok: true, version: 1 });
    clock.advance(9_999);
    assert.deepEqual(await scratch.get('s1', 'cursor'), { value: 5, version: 1 });
    clock.advance(1);
    assert.deepEqual(await scratch.get('s1', 'cursor'), { value: null, version: 0 });
  }),
  define('scratch: versions keep increasing across expiry, so a stale version never matches', async ({ stores: { scratch }, clock }) => {
    await scratch.putCas('s1', 'k', 0, 'old', 1_000);
    clock.advance(1_000);
    assert.deepEqual(await scratch.putCas('s1', 'k', 1, 'stale', 1_000), { ok: false, version: 0 });
    assert.deepEqual(await scratch.putCas('s1', 'k', 0, 'new', 1_000), { ok: true, version: 2 });
    assert.deepEqual(await scratch.putCas('s1', 'k', 1, 'stale', 1_000), { ok: false, version: 2 });
    assert.deepEqual(await scratch.putCas('s1', 'k', 2, 'newer', 1_000), { ok: true, version: 3 });
  }),
  define('scratch: entries are private to their session', async ({ stores: { scratch } }) => {
    await scratch.putCas('s1', 'k', 0, 'mine', 60_000);
    assert.deepEqual(await scratch.get('s2', 'k'), { value: null, version: 0 });
    assert.deepEqual(await scratch.putCas('s2', 'k', 0, 'theirs', 60_000), { ok: true, version: 1 });
    assert.deepEqual(await scratch.get('s1', 'k'), { value: 'mine', version: 1 });
  }),
  define('scratch: purgeExpired deletes expired entries only and says how many', async ({ stores: { scratch }, clock }) => {
    await scratch.putCas('s1', 'a', 0, 1, 1_000);
    await scratch.putCas('s1', 'b', 0, 1, 5_000);
    await scratch.putCas('s2', 'a', 0, 1, 1_500);
    clock.advance(2_000);
    assert.equal(await scratch.purgeExpired(), 2);
    assert.equal(await scratch.purgeExpired(), 0);
    assert.deepEqual(await scratch.get('s1', 'b'), { value: 1, version: 1 });
  }),
  define('scratch: after expiry and purge a stale CAS still never wins', async ({ stores: { scratch }, clock }) => {
    assert.deepEqual(await scratch.putCas('s1', 'k', 0, 'first', 1_000), { ok: true, version: 1 });
    clock.advance(1_000);
    assert.equal(await scratch.purgeExpired(), 1);
    assert.deepEqual(await scratch.get('s1', 'k'), { value: null, version: 0 });
    assert.deepEqual(await scratch.putCas('s1', 'k', 0, 'second', 1_000), { ok: true, version: 2 });
    assert.deepEqual(await scratch.putCas('s1', 'k', 1, 'stale', 1_000), { ok: false, version: 2 });
    clock.advance(1_000);
    await scratch.purgeExpired();
    assert.deepEqual(await scratch.putCas('s1', 'k', 0, 'third', 1_000), { ok: true, version: 3 });
  }),
  define('idempotence: one record per (session, turn, call index); the first is kept', async ({ stores: { idempotence }, clock }) => {
    clock.set(5);
    assert.equal(await idempotence.lookup('s1', 1, 0), undefined);
    const first = await idempotence.record({ ...key, tool: 'tool.memory.cas', argumentsJson: '{"a":1}', result: [true, 1] });
    assert.deepEqual(first, { ...key, tool: 'tool.memory.cas', argumentsJson: '{"a":1}', result: [true, 1], recordedAt: 5 });
    const second = await idempotence.record({ ...key, tool: 'tool.memory.cas', argumentsJson: '{"a":1}', result: [false, 1] });
    assert.deepEqual(second.result, [true, 1]);
    assert.deepEqual(await idempotence.lookup('s1', 1, 0), first);
    assert.equal(await idempotence.lookup('s1', 2, 0), undefined);
    assert.equal(await idempotence.lookup('s2', 1, 0), undefined);
  }),
  define('idempotence: of two connections one claims; the other sees it pending, then recorded', async ({ stores, connect }) => {
    const a = stores.idempotence;
    const b = (await connect()).idempotence;
    assert.deepEqual(await a.claim(key), { state: 'claimed' });
    assert.deepEqual(await b.claim(key), { state: 'pending', tool: key.tool, argumentsJson: key.argumentsJson });
    assert.equal(await b.lookup('s1', 1, 0), undefined);
    await a.record({ ...key, result: 11 });
    const claim = await b.claim(key);
    assert.equal(claim.state, 'recorded');
    assert.deepEqual(claim.state === 'recorded' ? claim.record.result : undefined, 11);
    await a.release('s1', 1, 0);
    assert.deepEqual((await b.lookup('s1', 1, 0))?.result, 11);
  }),
  define('idempotence: concurrent claims from two connections — exactly one gets the slot', async ({ stores, connect }) => {
    const second = await connect();
    const claims = await Promise.all(Array.from({ length: 8 }, (_, index) => (index % 2 === 0 ? stores : second).idempotence.claim({ ...key, callIndex: 7 })));
    assert.equal(claims.filter((claim) => claim.state === 'claimed').length, 1);
    assert.equal(claims.filter((claim) => claim.state === 'pending').length, 7);
  }),
  define('idempotence: release gives a pending slot up, so the next claim wins', async ({ stores: { idempotence } }) => {
    await idempotence.claim(key);
    await idempotence.release('s1', 1, 0);
    assert.equal(await idempotence.lookup('s1', 1, 0), undefined);
    assert.deepEqual(await idempotence.claim(key), { state: 'claimed' });
  }),
  define("idempotence: forgetBefore removes the session's records of earlier turns older than an age on its clock, pending ones too, and nothing else", async ({ stores: { idempotence }, clock }) => {
    // Optional in the interface; a store that has it must keep to this (a store without it skips this case by its name).
    assert.equal(typeof idempotence.forgetBefore, 'function', 'the store has no forgetBefore');
    const forget = (session: string, turn: number, olderThanMs: number) => (idempotence.forgetBefore as NonNullable<typeof idempotence.forgetBefore>)(session, turn, olderThanMs);
    for (const [session, turn, callIndex] of [['s1', 1, 0], ['s1', 1, 1], ['s1', 2, 0], ['s1', 3, 0], ['s2', 1, 0], ['s10', 1, 0]] as const) {
      await idempotence.record({ session, turn, callIndex, tool: 'tool.memory.cas', argumentsJson: '{}', result: `${session}/${turn}/${callIndex}` });
    }
    await idempotence.claim({ ...key, turn: 2, callIndex: 1 });
    // A second later, by the store's clock: the records above are 1,000 ms old, this one new.
    clock.advance(1_000);
    await idempotence.record({ session: 's1', turn: 2, callIndex: 2, tool: 'tool.memory.cas', argumentsJson: '{}', result: 'later' });
    assert.equal(await forget('s1', 3, 1_000), 0);
    assert.equal(await forget('s1', 3, Number.POSITIVE_INFINITY), 0);
    // A fractional or negative age is its whole part, at least 0.
    assert.equal(await forget('s1', 3, 999.9), 4);
    for (const [turn, callIndex] of [[1, 0], [1, 1], [2, 0]] as const) assert.equal(await idempotence.lookup('s1', turn, callIndex), undefined);
    // The pending claim went too: its turn will not run again, so the slot is free.
    assert.deepEqual(await idempotence.claim({ ...key, turn: 2, callIndex: 1 }), { state: 'claimed' });
    assert.equal((await idempotence.lookup('s1', 2, 2))?.result, 'later');
    assert.equal((await idempotence.lookup('s1', 3, 0))?.result, 's1/3/0');
    assert.equal((await idempotence.lookup('s2', 1, 0))?.result, 's2/1/0');
    assert.equal((await idempotence.lookup('s10', 1, 0))?.result, 's10/1/0');
    clock.advance(1);
    assert.equal(await forget('s1', 3, -5), 2);
    assert.equal(await forget('nobody', 9, 0), 0);
  }),
  // Bad arguments from code: the same refusal on every backend.
  ...toolStoreArgumentCases,
];
