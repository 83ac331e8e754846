/**
 * A run stopped from outside while a tool call is out — its caller's abort,
 * its wall clock (the host's timer during a call) — reports the fuel it had
 * spent, not 0, and the call's line: the isolate is gone by then, so the
 * evaluator leaves its checkpoint before each host request, and the worker
 * sends it with the call. Before, such a run's `usage.fuel` read 0 whatever
 * it had done (then, for a while, a `fuel` event crossed out of the isolate
 * before each call to say it, and the line was 0).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { compileEvaluation } from '../evaluate/index.ts';
import { parse } from '../parse/index.ts';
import { createSandboxPool } from '../sandbox/index.ts';
import type { ToolCatalog } from '../tool-signature.ts';
import { createInterpreter } from './create-interpreter.ts';
import { EVALUATOR_ENTRY, evaluatorBundle } from './evaluator-bundle.ts';
import type { ToolBridge } from './run-types.ts';

const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());

const catalog: ToolCatalog = {
  get: (name) => (name.toLowerCase() === 'tool.test.wait' ? { name: 'tool.test.wait', arguments: [], variadic: true } : undefined),
  names: () => ['tool.test.wait'],
};

/** `tool.test.wait` answers at once when `quick`, else when its signal aborts (or after 20 s); `called` when it is called. */
function bridge(quick: boolean, called: () => void = () => undefined): ToolBridge {
  return {
    catalog,
    call: (_name, _args, options) => {
      called();
      if (quick) return 'done';
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve('waited 20 s'), 20_000);
        options?.signal?.addEventListener('abort', () => (clearTimeout(timer), resolve('stopped')), { once: true });
      });
    },
  };
}

/** Some work, then the call as the program's last statement. */
const program = 'command\n  set n = 0\n  for each i in [1, 2, 3, 4, 5, 6, 7, 8]\n    set n = n + i\n  endfor\n  set r = tool.test.wait()\nendcommand\n';

describe('the fuel of a run stopped during a tool call', () => {
  it('is what it spent up to the call when its caller aborts it, at the call\'s line', async () => {
    // The call is the last step: the whole run spends exactly what it had spent when it made the call.
    const whole = await createInterpreter({ pool }).run(program, { tools: bridge(true) });
    expect(whole.ok).toBe(true);
    const cancel = new AbortController();
    const stopped = await createInterpreter({ pool }).run(program, { tools: bridge(false, () => cancel.abort()), signal: cancel.signal });
    expect(stopped.error).toMatchObject({ code: 'SCRIPT_ABORTED', line: 6 });
    expect(stopped.usage.fuel).toBe(whole.usage.fuel);
  });

  it('is what it spent up to the call when its wall clock runs out during the call, at the call\'s line', async () => {
    const whole = await createInterpreter({ pool }).run(program, { tools: bridge(true) });
    const stopped = await createInterpreter({ pool, limits: { wallMs: 300 } }).run(program, { tools: bridge(false) });
    expect(stopped.error).toMatchObject({ code: 'SCRIPT_TIMEOUT', line: 6 });
    expect(stopped.usage.fuel).toBe(whole.usage.fuel);
  });

  it('costs no crossing out of the isolate: a tool call sends no event, only the call', async () => {
    const parsed = parse(program);
    if (!parsed.ok) throw new Error('the program parses');
    const kinds: string[] = [];
    const result = await pool.run({
      runtime: evaluatorBundle(),
      entry: EVALUATOR_ENTRY,
      input: compileEvaluation({ program: parsed.program, libraries: [], limits: {}, globals: {}, stream: true }),
      onToolCall: () => 'done',
      onEvent: (kind) => kinds.push(kind),
    });
    expect(result.ok).toBe(true);
    expect(kinds).toEqual([]);
  });
});
