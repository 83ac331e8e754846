/**
 * A run passes its bridge a signal with every tool call that aborts when the
 * run ends while the call is open — its wall clock ran out, the host aborted
 * it — and never once the call has settled. Regression: `ToolBridge.call`
 * got no signal, so a bridge of its own (not the controller's, which aborts
 * its tool host when the run ends) was never told, and its work went on.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createSandboxPool } from '../sandbox/index.ts';
import type { ToolCatalog } from '../tool-signature.ts';
import { createInterpreter } from './create-interpreter.ts';
import type { ToolBridge, ToolBridgeCallOptions } from './run-types.ts';

const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());

const catalog: ToolCatalog = {
  get: (name) => (name.toLowerCase() === 'tool.test.wait' || name.toLowerCase() === 'tool.test.quick' ? { name: name.toLowerCase(), arguments: [], variadic: true } : undefined),
  names: () => ['tool.test.quick', 'tool.test.wait'],
};

const wrap = (body: string): string => `command\n${body}\nendcommand\n`;

/** What one call saw: its signal, and when (ms after the call began) that aborted. */
interface Observed {
  signal: AbortSignal | undefined;
  abortedAfterMs: number | undefined;
}

/** `tool.test.wait` waits until its signal aborts (or 20 s); `tool.test.quick` answers at once. */
function observingBridge(): { tools: ToolBridge; calls: Observed[] } {
  const calls: Observed[] = [];
  const tools: ToolBridge = {
    catalog,
    call: (name, _args, options?: ToolBridgeCallOptions) => {
      const observed: Observed = { signal: options?.signal, abortedAfterMs: undefined };
      calls.push(observed);
      const startedAt = performance.now();
      options?.signal?.addEventListener('abort', () => (observed.abortedAfterMs = performance.now() - startedAt), { once: true });
      if (name === 'tool.test.quick') return 'done';
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve('waited 20 s'), 20_000);
        options?.signal?.addEventListener('abort', () => (clearTimeout(timer), resolve('stopped')), { once: true });
      });
    },
  };
  return { tools, calls };
}

describe('the signal a run passes its tool bridge', () => {
  it('aborts, promptly, when the run times out during the call', async () => {
    const { tools, calls } = observingBridge();
    const result = await createInterpreter({ pool, limits: { wallMs: 300 } }).run(wrap('  set r = tool.test.wait()'), { tools });
    expect(result.error?.code).toBe('SCRIPT_TIMEOUT');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.signal?.aborted).toBe(true);
    // Aborted when the run's wall clock ran out (300 ms), not at the bridge's own 20 s.
    expect(calls[0]?.abortedAfterMs).toBeLessThan(5_000);
  });

  it('aborts, promptly, when the host aborts the run during the call', async () => {
    const { tools, calls } = observingBridge();
    const cancel = new AbortController();
    const running = createInterpreter({ pool, limits: { wallMs: 30_000 } }).run(wrap('  set r = tool.test.wait()'), { tools, signal: cancel.signal });
    await expect.poll(() => calls.length).toBe(1);
    cancel.abort();
    const result = await running;
    expect(result.error?.code).toBe('SCRIPT_ABORTED');
    expect(calls[0]?.signal?.aborted).toBe(true);
    expect(calls[0]?.abortedAfterMs).toBeLessThan(5_000);
  });

  it('aborts only the call open when the run timed out, not the one that finished before it', async () => {
    const { tools, calls } = observingBridge();
    const result = await createInterpreter({ pool, limits: { wallMs: 300 } }).run(wrap('  set q = tool.test.quick()\n  set r = tool.test.wait()'), { tools });
    expect(result.error?.code).toBe('SCRIPT_TIMEOUT');
    expect(calls.map((call) => call.signal?.aborted)).toEqual([false, true]);
  });

  it('never aborts for a call that finished, even after its run has ended', async () => {
    const { tools, calls } = observingBridge();
    const result = await createInterpreter({ pool }).run(wrap('  set a = tool.test.quick()\n  set b = tool.test.quick()\n  emit a + b'), { tools });
    expect(result.ok).toBe(true);
    expect(result.output).toBe('donedone\n');
    // The run has ended (its own signal aborted when it settled): nothing reached the calls' signals.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call.signal).toBeInstanceOf(AbortSignal);
      expect(call.signal?.aborted).toBe(false);
      expect(call.abortedAfterMs).toBeUndefined();
    }
  });

  it('never aborts for the calls of a run that failed after them', async () => {
    const { tools, calls } = observingBridge();
    const result = await createInterpreter({ pool }).run(wrap('  set a = tool.test.quick()\n  set b = 1 / 0'), { tools });
    expect(result.ok).toBe(false);
    expect(calls[0]?.signal?.aborted).toBe(false);
  });
});
