/**
 * The run's budget of tool-call data (`toolDataChars`): arguments and results
 * as JSON, through the real sandbox. A program sending the same 1 MiB string
 * of control characters to a tool again and again (6 MiB a call as JSON)
 * used to make a turn record no JSON string could hold.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createSandboxPool } from '../sandbox/index.ts';
import type { ToolCatalog } from '../tool-signature.ts';
import { createInterpreter } from './create-interpreter.ts';
import type { ToolBridge } from './run-types.ts';

const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());

const catalog: ToolCatalog = {
  get: (name) => (['test.length', 'test.big'].includes(name.toLowerCase().replace(/^tool\./, '')) ? { name: `tool.${name.toLowerCase().replace(/^tool\./, '')}`, arguments: [], variadic: true } : undefined),
  names: () => ['tool.test.length', 'tool.test.big'],
};

function bridge(calls: string[]): ToolBridge {
  return {
    catalog,
    call: async (name, args) => {
      calls.push(name);
      return name === 'tool.test.big' ? 'x'.repeat(Number(args[0])) : String(args[0]).length;
    },
  };
}

describe('toolDataChars', () => {
  it('refuses the call whose arguments would pass it, before the tool runs, at its line (a quota the program cannot catch)', async () => {
    const calls: string[] = [];
    const program = 'command\n  set s = char(1) * 100000\n  set i = 0\n  while i < 10\n    set n = tool.test.Length(s)\n    set i = i + 1\n  endwhile\nendcommand\n';
    // Each call's arguments are `["\u0001…"]`: 600,004 characters as JSON.
    const result = await createInterpreter({ pool }).run(program, { tools: bridge(calls), limits: { toolDataChars: 2_000_000 } });
    expect(result.error).toMatchObject({ code: 'SCRIPT_TOOL_DATA_LIMIT', kind: 'quota', line: 5 });
    expect(result.error?.message).toMatch(/tool tool\.test\.length: its arguments \(600004 characters as JSON\) would take the run's tool calls past 2000000 characters of arguments and results \(18\d{5} so far; limit: toolDataChars\)/);
    expect(calls).toHaveLength(3);
  });

  it('does not deliver a result that would pass it, and a run within it is untouched', async () => {
    const calls: string[] = [];
    const interpreter = createInterpreter({ pool });
    const over = await interpreter.run('command\n  set a = tool.test.Big(1000)\n  set b = tool.test.Big(5000)\n  emit "never"\nendcommand\n', { tools: bridge(calls), limits: { toolDataChars: 4000 } });
    expect(over.error).toMatchObject({ code: 'SCRIPT_TOOL_DATA_LIMIT', line: 3, message: expect.stringContaining('its result (5002 characters as JSON)') });
    expect(over.emits).toEqual([]);
    const within = await interpreter.run('command\n  set a = tool.test.Big(1000)\n  emit len(a)\nendcommand\n', { tools: bridge(calls), limits: { toolDataChars: 4000 } });
    expect(within).toMatchObject({ ok: true, emits: ['1000'] });
  });
});
