/**
 * The sandbox layer as the README shows it, through the package's entry: a
 * runtime bundle of the caller's own, run in a pool with a tool and events.
 */
import { describe, expect, it } from 'vitest';
import { createRuntimeBundle, createSandboxPool } from '../index.ts';

describe('the sandbox API from the package entry', () => {
  it('runs a bundle made with createRuntimeBundle, with a tool call and an event', async () => {
    const pool = createSandboxPool({ workers: 1, limits: { wallMs: 5_000, memoryMb: 64 } });
    try {
      const runtime = createRuntimeBundle(
        'globalThis.main = (input) => { const sum = __host.callTool("add", [input.a, input.b]); __host.event("note", { sum }); return { sum: sum.value }; };',
        'example',
      );
      expect(runtime.id).toMatch(/^example@[0-9a-f]{16}$/);
      const events: unknown[] = [];
      const result = await pool.run({
        runtime,
        entry: 'main',
        input: { a: 2, b: 3 },
        onToolCall: async (name, args) => (name === 'add' ? (args as number[]).reduce((x, y) => x + y, 0) : undefined),
        onEvent: (kind, payload) => events.push({ kind, payload }),
      });
      expect(result).toMatchObject({ ok: true, value: { sum: 5 } });
      expect(events).toEqual([{ kind: 'note', payload: { sum: { ok: true, value: 5 } } }]);
    } finally {
      await pool.close();
    }
  });
});
