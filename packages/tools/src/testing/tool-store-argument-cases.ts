/**
 * The part of the tool store conformance table about bad arguments from
 * code: every public method rejects them with `STORE_ARGUMENT_INVALID`
 * (asynchronously, like any other failure of the method), naming the method,
 * the argument and what it got — never a value's content — and writes
 * nothing. A key, session or tool name holding U+0000 is one of them on
 * every backend (PostgreSQL's text cannot hold it), and so is one holding a
 * lone surrogate (both backends kept it as U+FFFD, so two keys were one),
 * while a value's strings may hold either (`tool-store-cases.ts`). The edge values a NeuroScript tool call can pass (version 0, a
 * map without prototype, a value nested exactly 100 levels deep, a negative
 * or infinite age for `forgetBefore`) are still taken.
 */
import assert from 'node:assert/strict';
import type { IdempotenceKey } from '../stores/store-types.ts';
import { defineStoreCase as define, type ToolStoreCase } from './define-store-case.ts';

/** A text no message may show: it stands for a secret inside a refused value. */
const SECRET = 'sk-live-do-not-show';

/** Lists nested `levels` deep around a number (`levels` 1: `[1]`). */
function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < levels; level += 1) value = [value];
  return value;
}

function cyclic(): unknown {
  const value: Record<string, unknown> = { token: SECRET };
  value.self = value;
  return value;
}

/** Values that are not plain JSON data, each with the words of the message that names its fault. */
const BAD_VALUES: readonly (readonly [label: string, value: unknown, says: string])[] = [
  ['undefined', undefined, 'holds undefined at $'],
  ['a function', () => SECRET, 'holds a function at $'],
  ['a BigInt', 10n, 'holds a BigInt at $'],
  ['a symbol', Symbol('x'), 'holds a symbol at $'],
  ['NaN', Number.NaN, 'a non-finite number (NaN) at $'],
  ['Infinity inside a list', [1, Number.POSITIVE_INFINITY], 'a non-finite number (Infinity) at $[1]'],
  ['undefined inside a map', { token: SECRET, later: undefined }, 'holds undefined at $.later'],
  ['a hole in a list', [SECRET, , 2], 'empty slot at $[1]'],
  ['a function inside a map', { token: SECRET, deep: { call: () => 1 } }, 'holds a function at $.deep.call'],
  ['a cycle', cyclic(), 'cyclic at $.self'],
  ['a Date', new Date(0), 'holds a Date at $ (return text, e.g. date.toISOString())'],
  ['a Map', new Map([['token', SECRET]]), 'holds a Map at $ (return a plain object, e.g. Object.fromEntries(map))'],
  // Refused as a whole, as a tool's result is (it was "a function at $.toJSON"): it meant to be converted.
  ['a map with a toJSON method', { token: SECRET, toJSON: () => SECRET }, 'holds an object with a toJSON method at $'],
  ['101 levels of lists', nested(101), 'more than 100 levels deep at $[0][0][0]'],
];

/** Asserts that `call` rejects (not throws) with `STORE_ARGUMENT_INVALID` from `method` about `argument`, saying `says`. */
async function refused(call: () => Promise<unknown>, method: string, argument: string, says: string): Promise<void> {
  let pending: Promise<unknown>;
  try {
    pending = call();
  } catch (error) {
    assert.fail(`${method}() threw synchronously instead of rejecting: ${String(error)}`);
  }
  await assert.rejects(pending, (error: unknown) => {
    const { code, argument: named, message } = error as { code?: unknown; argument?: unknown; message?: unknown };
    assert.equal(code, 'STORE_ARGUMENT_INVALID', `${method}(${argument}: ${says}) failed with ${String(code)}: ${String(message)}`);
    assert.equal(named, argument);
    assert.ok(typeof message === 'string' && message.startsWith(`${method}(): ${argument} must be `), `message names method and argument: ${String(message)}`);
    assert.ok(message.includes(says), `"${message}" says "${says}"`);
    assert.ok(!message.includes(SECRET), `"${message}" shows the value`);
    return true;
  });
}

/** Bad versions, turns or call indexes, each with how the message shows it. */
const BAD_INDEXES: readonly (readonly [unknown, string])[] = [
  [Number.NaN, 'got NaN'],
  [-1, 'got -1'],
  [1.5, 'got 1.5'],
  [Number.POSITIVE_INFINITY, 'got Infinity'],
  [2 ** 53, `got ${2 ** 53}`],
  ['1', 'got a string of 1 character'],
  [undefined, 'got undefined'],
  [null, 'got null'],
];

/** Bad keys and sessions, each with how the message shows it. */
const BAD_NAMES: readonly (readonly [unknown, string])[] = [
  ['', 'got an empty string'],
  [undefined, 'got undefined'],
  [42, 'got 42'],
  [null, 'got null'],
  [{ token: SECRET }, 'got a map'],
  [['k'], 'got a list'],
  [new Date(0), 'got an object of class Date'],
  // Its class read safely: a proxy whose every read throws is still this refusal, not the proxy's error.
  [new Proxy({}, { get: () => { throw new Error('trap'); }, getPrototypeOf: () => { throw new Error('trap'); } }), 'got an object of class unknown'],
  // PostgreSQL's text cannot hold U+0000 (it failed there as STORE_FAILED, and worked on SQLite): refused everywhere.
  [`${SECRET}\u0000x`, `without the NUL character (U+0000), which PostgreSQL cannot store, got a string of ${SECRET.length + 2} characters with it at index ${SECRET.length}`],
  // Both backends keep a lone surrogate as U+FFFD, so 'a\uD800', 'a\uDBFF' and 'a\uFFFD' were one key: refused everywhere.
  [`${SECRET}\uD800`, `must be well-formed text, got a string of ${SECRET.length + 1} characters whose character at index ${SECRET.length} is half of a surrogate pair (U+D800) without its other half, which every store keeps as U+FFFD`],
  [`${SECRET}\uDBFFx`, `whose character at index ${SECRET.length} is half of a surrogate pair (U+DBFF) without its other half`],
  // A low half alone, and a pair in the wrong order (two lone halves): the first is named.
  [`\uDC00${SECRET}`, 'whose character at index 0 is half of a surrogate pair (U+DC00) without its other half'],
  [`\u{1F600}${SECRET}\uDE00\uD83D`, `whose character at index ${SECRET.length + 2} is half of a surrogate pair (U+DE00) without its other half`],
];

// Loose views of the methods: the cases pass what the types forbid, as untyped code would.
type Loose = (...args: unknown[]) => Promise<unknown>;
const loose = (method: unknown): Loose => method as Loose;

const key: IdempotenceKey = { session: 's1', turn: 1, callIndex: 0, tool: 'tool.demo.bump', argumentsJson: '{"args":{},"rest":[]}' };

/** The cases. */
export const toolStoreArgumentCases: readonly ToolStoreCase[] = [
  define('memory: bad arguments from code are refused with STORE_ARGUMENT_INVALID, naming method and argument, and nothing is written', async ({ stores: { memory } }) => {
    const get = loose(memory.get);
    const cas = loose(memory.cas);
    for (const [bad, says] of BAD_NAMES) {
      await refused(() => get(bad), 'memory.get', 'key', says);
      await refused(() => cas(bad, 0, 'v'), 'memory.cas', 'key', says);
    }
    for (const [bad, says] of BAD_INDEXES) await refused(() => cas('k', bad, 'v'), 'memory.cas', 'expectedVersion', says);
    for (const [, bad, says] of BAD_VALUES) await refused(() => cas('k', 0, bad), 'memory.cas', 'value', says);
    assert.deepEqual(await memory.get('k'), { value: null, version: 0 });
    // What a tool call can pass is still taken: the deepest value its arguments may hold, a map without prototype.
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { b: -0, a: 'x' });
    assert.deepEqual(await cas('k', 0, { deep: nested(99), bare }), { ok: true, version: 1 });
    assert.deepEqual(await memory.get('k'), { value: { deep: nested(99), bare: { a: 'x', b: 0 } }, version: 1 });
    assert.deepEqual(await cas('k', 1, nested(100)), { ok: true, version: 2 });
  }),
  define('scratch: bad arguments from code are refused with STORE_ARGUMENT_INVALID, naming method and argument, and nothing is written', async ({ stores: { scratch } }) => {
    const get = loose(scratch.get);
    const putCas = loose(scratch.putCas);
    for (const [bad, says] of BAD_NAMES) {
      await refused(() => get(bad, 'k'), 'scratch.get', 'session', says);
      await refused(() => get('s1', bad), 'scratch.get', 'key', says);
      await refused(() => putCas(bad, 'k', 0, 'v', 1_000), 'scratch.putCas', 'session', says);
      await refused(() => putCas('s1', bad, 0, 'v', 1_000), 'scratch.putCas', 'key', says);
    }
    for (const [bad, says] of BAD_INDEXES) await refused(() => putCas('s1', 'k', bad, 'v', 1_000), 'scratch.putCas', 'expectedVersion', says);
    for (const [, bad, says] of BAD_VALUES) await refused(() => putCas('s1', 'k', 0, bad, 1_000), 'scratch.putCas', 'value', says);
    for (const [bad, says] of [[0, 'got 0'], [-1_000, 'got -1000'], [1.5, 'got 1.5'], [Number.NaN, 'got NaN'], [Number.POSITIVE_INFINITY, 'got Infinity'], ['1000', 'got a string of 4 characters'], [undefined, 'got undefined']] as const) {
      await refused(() => putCas('s1', 'k', 0, 'v', bad), 'scratch.putCas', 'ttlMs', says);
    }
    assert.deepEqual(await scratch.get('s1', 'k'), { value: null, version: 0 });
    assert.deepEqual(await scratch.putCas('s1', 'k', 0, nested(100) as never, 1), { ok: true, version: 1 });
  }),
  define('idempotence: bad arguments from code are refused with STORE_ARGUMENT_INVALID, naming method and argument, and no slot is taken', async ({ stores: { idempotence } }) => {
    const lookup = loose(idempotence.lookup);
    const claim = loose(idempotence.claim);
    const record = loose(idempotence.record);
    const release = loose(idempotence.release);
    const slotMethods = [
      ['idempotence.lookup', lookup],
      ['idempotence.release', release],
    ] as const;
    for (const [method, call] of slotMethods) {
      for (const [bad, says] of BAD_NAMES) await refused(() => call(bad, 1, 0), method, 'session', says);
      for (const [bad, says] of BAD_INDEXES) {
        await refused(() => call('s1', bad, 0), method, 'turn', says);
        await refused(() => call('s1', 1, bad), method, 'callIndex', says);
      }
    }
    for (const [method, call, extra] of [
      ['idempotence.claim', claim, {}],
      ['idempotence.record', record, { result: 1 }],
    ] as const) {
      const objectArgument = method === 'idempotence.claim' ? 'key' : 'record';
      for (const [bad, says] of [[undefined, 'got undefined'], [null, 'got null'], ['s1', 'got a string of 2 characters'], [[key], 'got a list']] as const) {
        await refused(() => call(bad), method, objectArgument, says);
      }
      for (const [bad, says] of BAD_NAMES) {
        await refused(() => call({ ...key, ...extra, session: bad }), method, 'session', says);
        await refused(() => call({ ...key, ...extra, tool: bad }), method, 'tool', says);
      }
      for (const [bad, says] of BAD_INDEXES) {
        await refused(() => call({ ...key, ...extra, turn: bad }), method, 'turn', says);
        await refused(() => call({ ...key, ...extra, callIndex: bad }), method, 'callIndex', says);
      }
      for (const [bad, says] of [[undefined, 'got undefined'], [{ token: SECRET }, 'got a map'], [7, 'got 7'], [`{"a":"${SECRET}\u0000"}`, `got a string of ${SECRET.length + 9} characters with a raw NUL at index ${SECRET.length + 6}`], [`{"a":"${SECRET}\uD800"}`, `got a string of ${SECRET.length + 9} characters with a raw lone surrogate (U+D800) at index ${SECRET.length + 6}`]] as const) {
        await refused(() => call({ ...key, ...extra, argumentsJson: bad }), method, 'argumentsJson', says);
      }
    }
    for (const [, bad, says] of BAD_VALUES) await refused(() => record({ ...key, result: bad }), 'idempotence.record', 'result', says);
    assert.equal(await idempotence.lookup('s1', 1, 0), undefined);
    assert.deepEqual(await idempotence.claim(key), { state: 'claimed' });
    assert.deepEqual((await record({ ...key, result: nested(100) }) as { result: unknown }).result, nested(100));
  }),
  define('idempotence: forgetBefore refuses bad arguments from code with STORE_ARGUMENT_INVALID, and takes any age but NaN', async ({ stores: { idempotence } }) => {
    assert.equal(typeof idempotence.forgetBefore, 'function', 'the store has no forgetBefore');
    const forget = loose(idempotence.forgetBefore);
    for (const [bad, says] of BAD_NAMES) await refused(() => forget(bad, 1, 0), 'idempotence.forgetBefore', 'session', says);
    for (const [bad, says] of BAD_INDEXES) await refused(() => forget('s1', bad, 0), 'idempotence.forgetBefore', 'turn', says);
    for (const [bad, says] of [[Number.NaN, 'got NaN'], ['1000', 'got a string of 4 characters'], [undefined, 'got undefined'], [null, 'got null']] as const) {
      await refused(() => forget('s1', 1, bad), 'idempotence.forgetBefore', 'olderThanMs', says);
    }
    await idempotence.record({ ...key, result: 'kept' });
    // Documented ages: negative or fractional is its whole part, at least 0; Infinity removes nothing.
    assert.equal(await forget('s1', 2, Number.POSITIVE_INFINITY), 0);
    assert.equal(await forget('s1', 2, 0.5), 0);
    assert.equal((await idempotence.lookup('s1', 1, 0))?.result, 'kept');
  }),
];
