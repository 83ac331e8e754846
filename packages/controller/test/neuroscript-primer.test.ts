/**
 * The NeuroScript primer every turn's system text carries must teach what the
 * interpreter runs: its example program, and a program written from each of
 * its lines, run through the real interpreter, sandbox and tools, give what
 * the primer says they do.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closeDefaultPool, createInterpreter } from '@askloop/interpreter';
import { createDefaultRegistry, createPolicy, createToolHost, NEUROSCRIPT_PRIMER, PRIMER_EXAMPLE_PROGRAM } from '@askloop/tools';
import { buildSystemText } from '../src/loop/system-text.ts';
import type { ResolvedAgentDefinition } from '../src/agent/agent-definition.ts';

afterAll(async () => {
  await closeDefaultPool();
});

const run = (source: string) =>
  createInterpreter().run(source, {
    mode: 'agent',
    userdata: { subject: 'the task', fields: { n: 1 } },
    tools: createToolHost({ registry: createDefaultRegistry(), policy: createPolicy({ allow: ['tool.str.*', 'tool.map.*'] }), session: 'primer', turn: 1 }),
  });

describe('the NeuroScript primer', () => {
  it('is in the system text of every turn, after the rules of either dialect and before the instructions', () => {
    for (const dialect of ['v4', 'v1'] as const) {
      const text = buildSystemText({ dialect, instructions: 'Be brief.' } as ResolvedAgentDefinition, 'tool.str.Split(...)', { turn: 1, maxTurns: 8 }, 'normal');
      expect(text.indexOf(NEUROSCRIPT_PRIMER)).toBeGreaterThan(0);
      expect(text.indexOf(NEUROSCRIPT_PRIMER)).toBeLessThan(text.indexOf('Be brief.'));
    }
  });

  it('shows an example program that runs as written', async () => {
    expect(NEUROSCRIPT_PRIMER).toContain(PRIMER_EXAMPLE_PROGRAM);
    const result = await run(PRIMER_EXAMPLE_PROGRAM);
    expect(result.diagnostics).toEqual([]);
    expect(result.error).toBeNull();
    expect(result.emits).toEqual(['sum 12, 2 parts']);
  });

  it('says only what the interpreter does, line by line', async () => {
    const result = await run(`command
  set m = {"key": "value"}
  set m["k"] = 'text'
  set xs = [1, 2]
  set xs[0] = 3.5
  emit m["key"] + " " + m["k"] + " " + xs[0] + " " + len(xs) + " " + typeof(nil)
  emit userdata["subject"] + " " + userdata["fields"]["n"]
  emit 1 + 2
  emit "n=" + 3
  emit 2 ** 3 % 5
  emit 7 - 2 * 3 / 2  # a comment
  emit "1" + "2" // a comment, not a division
  -- a comment
  emit (1 != 2) and not false or true == false
  set i = 0
  while true
    set i = i + 1
    if i < 3
      continue
    else
      break
    endif
  endwhile
  for each v in {"b": 2, "a": 1}
    emit v
  endfor
  emit tool.map.Keys({"b": 2, "a": 1})
  set r = tool.str.ToUpper("a")
  call tool.str.ToUpper("b")
  emit r
  must i == 3
  on error do
    emit system_error_code + ": " + system_error_message
    clear_error
  endon
  fail "why"
  emit "after"
endcommand`);
    expect(result.diagnostics).toEqual([]);
    expect(result.error).toBeNull();
    expect(result.emits).toEqual(['value text 3.5 2 nil', 'the task 1', '3', 'n=3', '3', '4', '3', 'true', '1', '2', '["a", "b"]', 'A', 'SCRIPT_FAIL: why', 'after']);
  });
});
