import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createToolHost } from '../host/tool-host.ts';
import { createDefaultRegistry, createSafeToolPacks } from '../packs/default-registry.ts';
import { createJsonTools } from '../packs/json-tools.ts';
import { createListTools } from '../packs/list-tools.ts';
import { createMapTools } from '../packs/map-tools.ts';
import { createMathTools } from '../packs/math-tools.ts';
import { createMemoryTools } from '../packs/memory-tools.ts';
import { createStringTools } from '../packs/string-tools.ts';
import { createPolicy } from '../policy/policy.ts';
import { defineToolPack } from '../registry/tool-pack.ts';
import { createToolRegistry } from '../registry/tool-registry.ts';
import { defineTool } from '../spec/define-tool.ts';
import type { ToolArgumentSpec } from '../spec/tool-spec.ts';
import type { ToolValue } from '../spec/tool-value.ts';
import { callLocalTool } from './local-tools.ts';
import { isWorkerLocal } from './worker-local.ts';
import { localToolsModule, workerLocalTools } from './worker-local-tools.ts';

const purePacks = [createStringTools(), createListTools(), createMapTools(), createMathTools(), createJsonTools()];
const registry = createToolRegistry(purePacks);
const policy = createPolicy({ allow: ['tool.**'] });
const localSpecs = registry.specs();

/** What the tool host answers: its result, or `undefined` when the call fails there. */
async function hostAnswer(name: string, args: readonly ToolValue[], limits: { stringLength: number; collectionSize: number }): Promise<ToolValue | undefined> {
  const host = createToolHost({ registry, policy, session: 's', turn: 0, maxResultLength: limits.stringLength, maxResultItems: limits.collectionSize });
  try {
    return await host.call(name, args);
  } catch {
    return undefined;
  }
}

/** Values of each argument type, small enough to hit the limits below now and then. */
const scalar = fc.oneof(fc.string({ maxLength: 12 }), fc.integer({ min: -20, max: 40 }), fc.double({ noNaN: true, min: -1e3, max: 1e3 }), fc.boolean(), fc.constant(null));
const anyValue = fc.oneof(scalar, fc.array(scalar, { maxLength: 6 }), fc.dictionary(fc.string({ maxLength: 4 }), scalar, { maxKeys: 5 }));
const valueFor = (argument: ToolArgumentSpec): fc.Arbitrary<ToolValue> => {
  switch (argument.type) {
    case 'string':
      return fc.oneof(fc.string({ maxLength: 16 }), fc.constantFrom(',', ' a b ', '{"x":[1,2]}', 'SGVsbG8=', '[1, 2.5, "x"]', 'é😀'));
    case 'int':
      return fc.integer({ min: -5, max: 30 });
    case 'float':
      return fc.double({ noNaN: true, min: -1e6, max: 1e6 });
    case 'bool':
      return fc.boolean();
    case 'list':
      return fc.array(anyValue, { maxLength: 8 });
    case 'map':
      return fc.dictionary(fc.string({ maxLength: 5 }), anyValue, { maxKeys: 6 });
    default:
      return anyValue;
  }
};
/** A call of one local tool: usually well-typed arguments, sometimes one too few or a wrong value. */
const callArbitrary = fc.constantFrom(...localSpecs).chain((spec) =>
  fc.tuple(
    fc.constant(spec.name),
    fc.oneof(
      { weight: 4, arbitrary: fc.tuple(...spec.arguments.map(valueFor)) as fc.Arbitrary<ToolValue[]> },
      { weight: 1, arbitrary: fc.array(anyValue, { maxLength: spec.arguments.length + 1 }) },
    ),
    fc.constantFrom({ stringLength: 20, collectionSize: 4 }, { stringLength: 1_000, collectionSize: 100 }),
  ),
);

describe('callLocalTool: the sandbox worker’s own answers to the pure tools', () => {
  it('answers a call as the tool host does, or leaves it to the host (property, every pure tool)', async () => {
    const answeredBy = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(callArbitrary, async ([name, args, limits]) => {
        const local = callLocalTool(name, args, limits);
        const host = await hostAnswer(name, args, limits);
        if (local !== undefined) answeredBy.set(name, (answeredBy.get(name) ?? 0) + 1);
        // Declined calls go to the host, which answers them itself; an answer given here must be the host's.
        if (local !== undefined) expect(local).toStrictEqual(host);
        // A call that fails in the host is never answered here: its error is the host's to give.
        if (host === undefined) expect(local).toBeUndefined();
      }),
      { numRuns: 3_000 },
    );
    // The property saw answers given here, of most tools: not a run where every call went to the host.
    expect(answeredBy.size).toBeGreaterThan(localSpecs.length * 0.8);
  });

  it('answers the common calls itself, with the host’s result', async () => {
    const limits = { stringLength: 1_000, collectionSize: 100 };
    const calls: [string, ToolValue[]][] = [
      ['tool.str.toupper', ['part 1 of t']],
      ['tool.str.split', ['a,b,c', ',']],
      ['tool.str.join', [['a', 'b'], '-']],
      ['tool.list.sort', [[3, 1, 2]]],
      ['tool.map.keys', [{ b: 1, a: 2 }]],
      ['tool.math.add', [1.5, 2]],
      ['tool.json.parse', ['{"x":[1,2]}']],
    ];
    for (const [name, args] of calls) {
      const local = callLocalTool(name, args, limits);
      expect(local, name).not.toBeUndefined();
      expect(local, name).toStrictEqual(await hostAnswer(name, args, limits));
    }
  });

  it('leaves to the host: an unknown tool, a bad argument, a tool error, a result over the limits', () => {
    const limits = { stringLength: 10, collectionSize: 2 };
    expect(callLocalTool('tool.memory.get', ['k'], limits)).toBeUndefined();
    expect(callLocalTool('tool.str.toupper', [3], limits)).toBeUndefined();
    expect(callLocalTool('tool.math.divide', [1, 0], limits)).toBeUndefined();
    expect(callLocalTool('tool.str.repeat', ['abc', 5], limits)).toBeUndefined();
    expect(callLocalTool('tool.str.split', ['a,b,c', ','], limits)).toBeUndefined();
  });
});

describe('isWorkerLocal', () => {
  it('marks every tool of the five pure packs, and no other built-in tool', () => {
    for (const pack of purePacks) for (const tool of pack.tools) expect(isWorkerLocal(tool), tool.spec.name).toBe(true);
    const others = createSafeToolPacks().filter((pack) => !['str', 'list', 'map', 'math', 'json'].includes(pack.name));
    expect(others.length).toBeGreaterThan(0);
    for (const pack of others) for (const tool of pack.tools) expect(isWorkerLocal(tool), tool.spec.name).toBe(false);
    for (const tool of createMemoryTools().tools) expect(isWorkerLocal(tool)).toBe(false);
  });
});

describe('workerLocalTools', () => {
  const names = ['tool.str.toupper', 'tool.list.sort', 'tool.time.now', 'tool.memory.get'];
  const full = createDefaultRegistry();

  it('lists the built-in pure tools the policy allows, in the order given', () => {
    expect(workerLocalTools(full, createPolicy({ allow: ['tool.**'] }), names)).toEqual(['tool.str.toupper', 'tool.list.sort']);
    expect(workerLocalTools(full, createPolicy({ allow: ['tool.str.*'] }), names)).toEqual(['tool.str.toupper']);
    expect(workerLocalTools(full, createPolicy({ allow: ['tool.**'], deny: ['tool.list.*'] }), names)).toEqual(['tool.str.toupper']);
  });

  it('lists none the policy counts: calls are counted against limits in the host', () => {
    expect(workerLocalTools(full, createPolicy({ allow: ['tool.**'], limits: { perTurn: 50 } }), names)).toEqual([]);
    expect(workerLocalTools(full, createPolicy({ allow: ['tool.**'], limits: { perSession: 500 } }), names)).toEqual([]);
    expect(workerLocalTools(full, createPolicy({ allow: ['tool.**'], limits: { tools: { 'tool.str.ToUpper': { perTurn: 2 } } } }), names)).toEqual(['tool.list.sort']);
  });

  it('never lists a plugin’s tool of the same name: its code is not the worker’s', () => {
    const own = defineToolPack('mystr', [defineTool({ name: 'tool.str.ToUpper', description: 'Mine.', args: [{ name: 'input_string', type: 'string' }], returns: 'string' }, () => 'mine')]);
    const mixed = createToolRegistry([own, createListTools()]);
    expect(workerLocalTools(mixed, createPolicy({ allow: ['tool.**'] }), names)).toEqual(['tool.list.sort']);
  });
});

describe('localToolsModule', () => {
  it('is the local-tools module beside it in the sources, which exports callLocalTool', async () => {
    const url = localToolsModule();
    expect(url).toMatch(/\/local\/local-tools\.ts$/);
    const loaded = (await import(url)) as { callLocalTool?: unknown };
    expect(typeof loaded.callLocalTool).toBe('function');
  });

  it('finds dist/local/local-tools.js from a bundled file of dist/', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'askloop-local-tools-'));
    onTestFinished(() => rmSync(root, { recursive: true, force: true }));
    mkdirSync(path.join(root, 'dist', 'local'), { recursive: true });
    writeFileSync(path.join(root, 'dist', 'local', 'local-tools.js'), 'export function callLocalTool() {}\n');
    const bundled = pathToFileURL(path.join(root, 'dist', 'chunk-ABC.js')).href;
    expect(localToolsModule(bundled)).toBe(pathToFileURL(path.join(root, 'dist', 'local', 'local-tools.js')).href);
  });
});

describe('ToolHost.recordLocalCall', () => {
  it('books a call answered in the worker in its place: index, counters, log', async () => {
    const host = createToolHost({ registry, policy, session: 's', turn: 3 });
    await host.call('tool.str.ToUpper', ['a']);
    host.recordLocalCall('tool.str.toupper');
    host.recordLocalCall('tool.list.sort');
    await expect(host.call('tool.math.Divide', [1, 0])).rejects.toThrow();
    expect(host.log().map(({ callIndex, tool, outcome }) => [callIndex, tool, outcome])).toEqual([
      [0, 'tool.str.toupper', 'ok'],
      [1, 'tool.str.toupper', 'ok'],
      [2, 'tool.list.sort', 'ok'],
      [3, 'tool.math.divide', 'error'],
    ]);
    expect(host.counters.turn.total).toBe(4);
    expect(host.counters.session.perTool.get('tool.str.toupper')).toBe(2);
    expect(host.log().every((record) => record.session === 's' && record.turn === 3)).toBe(true);
  });
});
