import { describe, expect, it } from 'vitest';
import { LOOP_TOOLS_GUIDE, loopToolsGuide } from './loop-tools-guide.ts';

const allowing = (...tools: string[]) => (tool: string) => tools.includes(tool);
const toolsNamed = (text: string) => [...new Set(text.match(/tool\.\w+\.\w+/g) ?? [])].sort();

/** The guide as it was before it depended on the reader: the default agent's text must not move. */
const GUIDE_BEFORE = `Loop-support tools

- tool.system.Caps() → map: test capabilities before acting, e.g. caps["memory:write"]; caps["grants"] says which keys, paths or hosts each grant covers.
- tool.memory.Get(key) → [value, version]; tool.memory.CAS(key, version, value) → [ok, version]. Write only with the version you read; on [false, v] read again and retry once.
- tool.scratch.Get(key) → [value, version]; tool.scratch.PutCAS(key, version, value, ttl_seconds) → [ok, version]. Private to this session; keep tokens here, not in OUTPUT.
- tool.policy.Allow(plan) → [ok, why]. Plan → Apply: in one turn emit a plan (a list of {"tool": name, "args": [...]} or {"op": "set", "path": key} steps) without writing; in the next turn apply it only if Allow says ok.
- Call tools with positional arguments, or with one map of named arguments: tool.str.Substring({"input_string": "abc", "start_index": 1, "length": 1}).
- Write tools are idempotent per (session, turn, call position): a replayed turn gets the recorded results instead of acting twice.`;

describe('loopToolsGuide', () => {
  it('is the guide as before, LOOP_TOOLS_GUIDE, for an agent that may call every tool', () => {
    expect(LOOP_TOOLS_GUIDE).toBe(GUIDE_BEFORE);
    expect(loopToolsGuide(() => true)).toBe(GUIDE_BEFORE);
  });

  it('asks about exactly the tools it can name', () => {
    const asked = new Set<string>();
    // Saying no to each, so that every fallback is asked too.
    loopToolsGuide((tool) => (asked.add(tool), false));
    expect([...asked].sort()).toEqual([...toolsNamed(GUIDE_BEFORE), 'tool.capsule.Read'].sort());
  });

  it('names no tool to an agent that may call none, and keeps the lines that name none', () => {
    const none = loopToolsGuide(() => false);
    expect(toolsNamed(none)).toEqual([]);
    expect(none).toBe(`Loop-support tools

- Call tools with positional arguments, or with one map of named arguments.
- Write tools are idempotent per (session, turn, call position): a replayed turn gets the recorded results instead of acting twice.`);
  });

  it('shows a family only when one of its tools is callable, naming only those', () => {
    const reader = loopToolsGuide(allowing('tool.memory.Get', 'tool.scratch.PutCAS', 'tool.capsule.Read'));
    expect(toolsNamed(reader)).toEqual(['tool.capsule.Read', 'tool.memory.Get', 'tool.scratch.PutCAS']);
    expect(reader.split('\n')).toEqual([
      'Loop-support tools',
      '',
      '- tool.memory.Get(key) → [value, version]',
      '- tool.scratch.PutCAS(key, version, value, ttl_seconds) → [ok, version]. Private to this session; keep tokens here, not in OUTPUT.',
      '- Call tools with positional arguments, or with one map of named arguments: tool.capsule.Read({"id": "capsule/askloop"}).',
      '- Write tools are idempotent per (session, turn, call position): a replayed turn gets the recorded results instead of acting twice.',
    ]);
    // tool.str.Substring is the first choice of example whenever it is callable.
    expect(loopToolsGuide(allowing('tool.str.Substring', 'tool.capsule.Read'))).toContain('tool.str.Substring({"input_string"');
  });
});
