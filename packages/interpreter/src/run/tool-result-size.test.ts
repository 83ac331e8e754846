/**
 * A bridge's oversized result is refused in the host before it is copied as
 * JSON, with the error the isolate gives (`SCRIPT_VALUE_TOO_LARGE`) naming the
 * limit, its value, the tool and where. Regression: a bridge returning a map
 * of 2 million keys was JSON-encoded twice in the host (9.7 s of blocked event
 * loop, 17 s in all) before the isolate refused it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../runtime/index.ts';
import { createSandboxPool } from '../sandbox/index.ts';
import type { ToolCatalog } from '../tool-signature.ts';
import { createInterpreter } from './create-interpreter.ts';
import { HostCallError } from './map-host-failure.ts';
import { checkToolResultSize } from './tool-result-size.ts';

const limits = { stringLength: 10, collectionSize: 3 };

function refusal(value: unknown): HostCallError {
  try {
    checkToolResultSize(value, limits, "tool 'tool.x.y'");
  } catch (error) {
    expect(error).toBeInstanceOf(HostCallError);
    return error as HostCallError;
  }
  throw new Error('expected a refusal');
}

function hugeMap(keys: number): Record<string, number> {
  const map: Record<string, number> = {};
  for (let index = 0; index < keys; index += 1) map[`k${index}`] = index;
  return map;
}

describe('checkToolResultSize', () => {
  it('names the kind, size, place and limit of the first list or map over collectionSize', () => {
    const error = refusal({ a: [1], rows: { b: [1, 2, 3, 4] } });
    expect(error.code).toBe('SCRIPT_VALUE_TOO_LARGE');
    expect(error.message).toBe("tool 'tool.x.y' returned a list of 4 items at $.rows.b; over the limit of 3 (limit: collectionSize); call it on smaller values");
    expect(refusal({ a: 1, b: 2, c: 3, d: 4 }).message).toContain('returned a map of 4 items at $;');
  });

  it('names a string over stringLength and where it is', () => {
    expect(refusal(['ok', 'x'.repeat(11)]).message).toBe("tool 'tool.x.y' returned a string of 11 characters at $[1]; over the limit of 10 (limit: stringLength); call it on smaller values");
  });

  it('refuses values nested more than 100 levels deep', () => {
    let deep: unknown = 1;
    for (let level = 0; level < 101; level += 1) deep = [deep];
    expect(refusal(deep).message).toContain('returned a value nested more than 100 levels deep at $[0][0]');
  });

  it('passes values within the limits, and leaves cycles and values that are not plain data to the copy (plain-data.ts)', () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    // A typed array of a million bytes is not counted as a list of a million items: the copy refuses it whatever its size.
    for (const value of [null, 1, 'x'.repeat(10), [1, 2, 3], { a: [{ b: 'c' }] }, cycle, new Date(0), new Uint8Array(1_000_000), new Map([['a', 1]])]) {
      expect(() => checkToolResultSize(value, limits, "tool 'tool.x.y'")).not.toThrow();
    }
  });
});

describe('a bridge returning millions of items (through the sandbox)', () => {
  const pool = createSandboxPool({ workers: 1 });
  afterAll(() => pool.close());
  const catalog: ToolCatalog = { get: (name) => (name.toLowerCase() === 'tool.big.make' ? { name: 'tool.big.make', arguments: [], variadic: true } : undefined), names: () => ['tool.big.make'] };
  const program = 'command\n  set r = tool.big.Make()\n  emit "got it"\nendcommand\n';

  it('a map of 2,000,000 keys fails the call with SCRIPT_VALUE_TOO_LARGE naming collectionSize, the tool and where', async () => {
    const made = hugeMap(2_000_000);
    const result = await createInterpreter({ pool, limits: { wallMs: 60_000 } }).run(program, { tools: { catalog, call: () => made } });
    expect(result.error?.code).toBe('SCRIPT_VALUE_TOO_LARGE');
    expect(result.error?.message).toContain(`tool 'tool.big.make' returned a map of 2000000 items at $; over the limit of ${DEFAULT_LIMITS.collectionSize} (limit: collectionSize); call it on smaller values`);
  }, 60_000);

  it('a list of 2,000,000 numbers and values nested a million levels deep are refused as well', async () => {
    const list = Array.from({ length: 2_000_000 }, (_, index) => index);
    const listed = await createInterpreter({ pool, limits: { wallMs: 60_000 } }).run(program, { tools: { catalog, call: () => list } });
    expect(listed.error?.message).toContain("tool 'tool.big.make' returned a list of 2000000 items at $;");
    let deep: unknown = 1;
    for (let level = 0; level < 1_000_000; level += 1) deep = [deep];
    const nested = await createInterpreter({ pool }).run(program, { tools: { catalog, call: () => deep } });
    // It was "not JSON data: Maximum call stack size exceeded".
    expect(nested.error?.code).toBe('SCRIPT_VALUE_TOO_LARGE');
    expect(nested.error?.message).toContain('nested more than 100 levels deep');
  }, 60_000);
});
