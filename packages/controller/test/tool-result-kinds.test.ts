/**
 * What a NeuroScript program sees when a tool's handler returns a value that
 * is not plain JSON, by every path a result takes into the sandbox: a plugin
 * tool (`defineTool`) through the real tool host, a bare bridge (an
 * embedder's own `ToolBridge`), and the `ask` orchestrator's answer. One rule
 * for all ("What a tool may return" in the tools README): `undefined` and
 * holes are nil, `-0` is 0, and anything else that is not plain data is a
 * `TOOL_RESULT_INVALID` naming the tool and where, never the content.
 * Before, the bare bridge and `ask` went through JSON: NaN became nil, a Map
 * `{}`, a Date its ISO text, a class instance its fields, a function vanished.
 * `promptuser` takes text only: before, `String()` made `undefined` the word
 * "undefined" and a function its source.
 */
import { createInterpreter, createSandboxPool, type RunResult, type ToolCatalog } from '@askloop/interpreter';
import { createPolicy, createToolHost, createToolRegistry, defineTool, defineToolPack } from '@askloop/tools';
import { afterAll, describe, expect, it } from 'vitest';

const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());

class Account {
  secret = 'hunter2';
}
class Stamp {
  toJSON(): string {
    return 'hunter2';
  }
}
const cyclic: Record<string, unknown> = { secret: 'hunter2' };
cyclic.self = cyclic;

/** What the program emits (`typeof r + " " + r`), or the detail of the error every path gives. */
type Outcome = { readonly sees: string } | { readonly refused: string };

// Each value holds "hunter2" where it can: no message may show it.
const KINDS: readonly (readonly [string, () => unknown, Outcome])[] = [
  ['plain data', () => ({ a: [1, 'x', true, null], b: { c: 2.5 } }), { sees: 'map {"a": [1, "x", true, nil], "b": {"c": 2.5}}' }],
  ['undefined', () => undefined, { sees: 'nil ' }],
  ['undefined in a map and a list', () => ({ a: undefined, b: [undefined] }), { sees: 'map {"a": nil, "b": [nil]}' }],
  ['an array with holes', () => [1, , 3], { sees: 'list [1, nil, 3]' }],
  ['-0', () => -0, { sees: 'number 0' }],
  ['a map without a prototype', () => Object.assign(Object.create(null) as object, { a: 1 }), { sees: 'map {"a": 1}' }],
  ['a symbol-keyed property', () => ({ a: 1, [Symbol('hunter2')]: 2 }), { sees: 'map {"a": 1}' }],
  ['NaN', () => ({ n: [1, Number.NaN] }), { refused: 'a non-finite number (NaN) at $.n[1] is not plain data; return a finite number, or nil when there is none' }],
  ['Infinity', () => Infinity, { refused: 'a non-finite number (Infinity) at $ is not plain data' }],
  ['a BigInt', () => 10n, { refused: 'a BigInt at $ is not plain data; return a number (when it is within ±2^53) or its decimal text' }],
  ['a function', () => ({ f: () => 'hunter2' }), { refused: 'a function at $.f is not plain data; leave it out of the result' }],
  ['a symbol', () => [Symbol('hunter2')], { refused: 'a symbol at $[0] is not plain data; leave it out of the result' }],
  ['a Date', () => ({ when: new Date(0) }), { refused: 'a Date at $.when is not plain data; return text, e.g. date.toISOString()' }],
  ['a Map', () => new Map([['secret', 'hunter2']]), { refused: 'a Map at $ is not plain data; return a plain object, e.g. Object.fromEntries(map)' }],
  ['a Set', () => new Set(['hunter2']), { refused: 'a Set at $ is not plain data; return an array, e.g. [...set]' }],
  ['a class instance', () => new Account(), { refused: 'an object of class Account at $ is not plain data; return a plain object or array' }],
  ['an object with toJSON', () => new Stamp(), { refused: 'an object with a toJSON method at $ is not plain data; toJSON is not called: return what it returns' }],
  ['a Buffer', () => Buffer.from('hunter2'), { refused: 'a Buffer at $ is not plain data; return text (e.g. base64) or a list of numbers' }],
  ['a typed array', () => new Uint8Array([1, 2]), { refused: 'a Uint8Array at $ is not plain data' }],
  ['a boxed string', () => new String('hunter2'), { refused: 'a String object at $ is not plain data; return the primitive, e.g. value.valueOf()' }],
  ['a cycle', () => cyclic, { refused: 'a cycle at $.self: the value refers back to one that holds it' }],
];

const PROGRAM = 'command\n  set r = tool.kinds.Give()\n  emit typeof(r) + " " + r\nendcommand\n';

/** A plugin tool through the real tool host. */
function runThroughToolHost(make: () => unknown): Promise<RunResult> {
  const pack = defineToolPack('kinds', [defineTool({ name: 'tool.kinds.Give', description: 'Gives a value.', args: [], returns: 'any' }, () => make() as never)]);
  const host = createToolHost({ registry: createToolRegistry([pack]), policy: createPolicy({ allow: ['tool.kinds.*'] }), session: 's1', turn: 1 });
  return createInterpreter({ pool }).run(PROGRAM, { tools: host });
}

const catalog: ToolCatalog = { get: (name) => (name.toLowerCase() === 'tool.kinds.give' ? { name: 'tool.kinds.give', arguments: [], variadic: false } : undefined), names: () => ['tool.kinds.give'] };

/** An embedder's own bridge, no tool host. */
function runThroughBareBridge(make: () => unknown): Promise<RunResult> {
  return createInterpreter({ pool }).run(PROGRAM, { tools: { catalog, call: () => make() } });
}

/** The `ask` orchestrator's answer. */
function runThroughAsk(make: () => unknown): Promise<RunResult> {
  const orchestrator = { runAskLoop: async () => make() as never };
  return createInterpreter({ pool, orchestrator }).run('command\n  ask "helper", "go" into r\n  emit typeof(r) + " " + r\nendcommand\n');
}

describe('what a program sees of a tool result that is not plain JSON', () => {
  describe.each([
    ['a plugin tool through the tool host', runThroughToolHost, 'SCRIPT_TOOL_ERROR', '[TOOL_RESULT_INVALID] tool.kinds.Give: '],
    ['a bare tool bridge', runThroughBareBridge, 'SCRIPT_TOOL_ERROR', "tool 'tool.kinds.give': [TOOL_RESULT_INVALID] "],
    ["the ask orchestrator's answer", runThroughAsk, 'SCRIPT_ASK_FAILED', "ask 'helper': the orchestrator's answer: "],
  ])('%s', (_path, run, code, prefix) => {
    it.each(KINDS)('%s', async (_kind, make, outcome) => {
      const result = await run(make);
      if ('sees' in outcome) {
        expect(result.error).toBeNull();
        expect(result.emits).toEqual([outcome.sees]);
        return;
      }
      expect(result.emits).toEqual([]);
      expect(result.error).toMatchObject({ code, message: expect.stringContaining(`${prefix}${outcome.refused}`) });
      // A tool's refusal carries the reference's code of TOOL_RESULT_INVALID (6) on every bridge.
      if (code === 'SCRIPT_TOOL_ERROR') expect(result.error?.numericCode).toBe(6);
      expect(result.error?.message).not.toContain('hunter2');
    });
  });
});

describe('what promptuser gives a program', () => {
  const ask = (answer: unknown) => createInterpreter({ pool, promptUser: () => answer as string }).run('command\n  promptuser "name?" into r\n  emit typeof(r) + " " + r\nendcommand\n', { mode: 'host' });

  it('text as it is', async () => {
    expect((await ask('Ada')).emits).toEqual(['string Ada']);
    expect((await ask('')).emits).toEqual(['string ']);
  });

  it.each([
    ['undefined', undefined, 'nothing'],
    ['a number', 42, 'a number'],
    ['an object', { secret: 'hunter2' }, 'an object'],
    ['a function', () => 'hunter2', 'a function'],
  ])('refuses %s, which is not text', async (_label, answer, named) => {
    const result = await ask(answer);
    expect(result.emits).toEqual([]);
    expect(result.error).toMatchObject({ code: 'SCRIPT_TOOL_ERROR', message: `promptuser: the prompt hook returned ${named}, not text; return the person's answer as a string ('' for no answer)` });
  });
});
