/**
 * The NeuroScript primer every turn's system text carries must teach what the
 * interpreter runs: its example program, and a program written from each of
 * its lines, run through the real interpreter, sandbox and tools, give what
 * the primer says they do.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closeDefaultPool, createInterpreter } from '@askloop/interpreter';
import { createDefaultRegistry, createPolicy, createToolHost, NEUROSCRIPT_PRIMER, PRIMER_EXAMPLE_PROGRAM, PRIMER_EXAMPLE_WITHOUT_TOOL } from '@askloop/tools';
import type { ScriptedTurn } from '@askloop/providers';
import { buildSystemText } from '../src/loop/system-text.ts';
import type { AgentDefinition, ResolvedAgentDefinition } from '../src/agent/agent-definition.ts';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import { envelope, testPlugin } from './test-plugin.ts';

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
    // The example of an agent without tool.str.Split runs where no tool is allowed at all.
    const bare = await createInterpreter().run(PRIMER_EXAMPLE_WITHOUT_TOOL, { mode: 'agent', tools: createToolHost({ registry: createDefaultRegistry(), policy: createPolicy(), session: 'primer', turn: 1 }) });
    expect({ diagnostics: bare.diagnostics, error: bare.error, emits: bare.emits }).toEqual({ diagnostics: [], error: null, emits: ['sum 12'] });
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

/** A model that copies the primer's example from its system text and adds the DONE marker: what a model does first. */
function copyingModel(systems: string[]) {
  return ({ system = '' }: ScriptedTurn) => {
    systems.push(system);
    const start = system.indexOf('Example:\n') + 'Example:\n'.length;
    const example = system.slice(start, system.indexOf('\nendcommand', start));
    return envelope(`${example}\n  emit "<<<LOOP:DONE>>> copied"\nendcommand`);
  };
}

describe("the primer in an agent's system text", () => {
  const runAgent = async (policy: AgentDefinition['policy']) => {
    const systems: string[] = [];
    const loop = createAskLoop({ plugins: [testPlugin({ copy: copyingModel(systems) })], store: createMemoryTranscriptStore() });
    try {
      const result = await loop.run({ agent: { name: 'a', model: 'scripted:copy', ...(policy === undefined ? {} : { policy }) }, task: 'x' });
      return { result, system: systems[0] ?? '' };
    } finally {
      await loop.close();
    }
  };

  it('names no tool.str or tool.map tool when the allow list leaves them out, and its example runs as copied', async () => {
    const { result, system } = await runAgent({ allow: ['tool.math.*'] });
    expect(system).not.toMatch(/tool\.(str|map)\./i);
    expect(system).toContain(PRIMER_EXAMPLE_WITHOUT_TOOL);
    expect(result).toMatchObject({ status: 'DONE', result: 'copied', turns: 1 });
  });

  it('names no tool a deny pattern takes away, nor tool.map.Keys to an agent without it', async () => {
    // (The catalogue still lists tool.str.SplitWords: only tool.str.Split is denied.)
    const denied = (await runAgent({ allow: ['**'], deny: ['tool.str.Split'] })).system;
    expect(denied).not.toContain('tool.str.Split(');
    expect(denied).toContain(PRIMER_EXAMPLE_WITHOUT_TOOL);
    // Allowed tool.str but not tool.map: the example as written, and no word of tool.map.Keys.
    const strOnly = (await runAgent({ allow: ['tool.str.*'] })).system;
    expect(strOnly).toContain(PRIMER_EXAMPLE_PROGRAM);
    expect(strOnly).not.toContain('tool.map.Keys');
  });

  it("is the whole primer, example as written, for the default agent and one allowed tool.str and tool.map", async () => {
    for (const policy of [undefined, { allow: ['tool.str.*', 'tool.map.*'] }]) {
      const { result, system } = await runAgent(policy);
      expect(system).toContain(NEUROSCRIPT_PRIMER);
      expect(result).toMatchObject({ status: 'DONE', result: 'copied', turns: 1 });
    }
  });

  it('is what its programs read from capsule/neuroscript: the same text, naming no tool the agent may not call', async () => {
    const primerIn = (system: string) => system.slice(system.indexOf('NeuroScript, the language of ACTIONS'), system.indexOf('\nendcommand', system.indexOf('Example:\n')) + '\nendcommand'.length);
    for (const policy of [{ allow: ['tool.capsule.*', 'tool.math.*'] }, undefined]) {
      const turns: ScriptedTurn[] = [];
      // Turn 1 emits the capsule into OUTPUT; turn 2 (which sees it in its envelope) finishes.
      const reader = (turn: ScriptedTurn) => {
        turns.push(turn);
        return envelope(turns.length === 1 ? 'command\n  emit tool.capsule.Read("neuroscript")["content"]\nendcommand' : 'command\n  emit "<<<LOOP:DONE>>> read"\nendcommand');
      };
      const loop = createAskLoop({ plugins: [testPlugin({ reader })], store: createMemoryTranscriptStore() });
      try {
        const result = await loop.run({ agent: { name: 'a', model: 'scripted:reader', ...(policy === undefined ? {} : { policy }) }, task: 'x' });
        expect(result).toMatchObject({ status: 'DONE', result: 'read', turns: 2 });
      } finally {
        await loop.close();
      }
      const primer = primerIn(turns[0]?.system ?? '');
      if (policy === undefined) expect(primer).toBe(NEUROSCRIPT_PRIMER);
      else expect(primer).toContain(PRIMER_EXAMPLE_WITHOUT_TOOL);
      expect(turns[1]?.prompt).toContain(primer);
      if (policy !== undefined) expect(turns[1]?.prompt).not.toMatch(/tool\.(str|map)\./i);
    }
  });
});
