/**
 * The capsule `capsule/loop-tools`: how to use the loop-support tools (seed
 * 000 §2.10–2.12, §6). Like the NeuroScript primer it names no tool the
 * reading agent may not call (`loopToolsGuide`): a model that reads about
 * `tool.memory.CAS` tries it, and a program calling a tool the agent may not
 * call is refused (`SCRIPT_TOOL_DENIED`) before it runs.
 */

/** One part of a family's line: the text naming `tool`, shown only to an agent that may call it. */
interface GuidePart {
  readonly tool: string;
  readonly text: string;
}

/** One line of the guide about one tool family: its callable parts joined by `; `, then `note` (if any). */
interface FamilyLine {
  readonly parts: readonly GuidePart[];
  /** Said of the family as a whole: shown whenever the line is. */
  readonly note?: string;
}

/** The family lines, in the guide's order. */
const FAMILY_LINES: readonly FamilyLine[] = [
  {
    parts: [{ tool: 'tool.system.Caps', text: 'tool.system.Caps() → map: test capabilities before acting, e.g. caps["memory:write"]; caps["grants"] says which keys, paths or hosts each grant covers.' }],
  },
  {
    parts: [
      { tool: 'tool.memory.Get', text: 'tool.memory.Get(key) → [value, version]' },
      // The advice belongs to the write: without CAS there is nothing to retry.
      { tool: 'tool.memory.CAS', text: 'tool.memory.CAS(key, version, value) → [ok, version]. Write only with the version you read; on [false, v] read again and retry once.' },
    ],
  },
  {
    parts: [
      { tool: 'tool.scratch.Get', text: 'tool.scratch.Get(key) → [value, version]' },
      { tool: 'tool.scratch.PutCAS', text: 'tool.scratch.PutCAS(key, version, value, ttl_seconds) → [ok, version]' },
    ],
    note: 'Private to this session; keep tokens here, not in OUTPUT.',
  },
  {
    parts: [
      {
        tool: 'tool.policy.Allow',
        text: 'tool.policy.Allow(plan) → [ok, why]. Plan → Apply: in one turn emit a plan (a list of {"tool": name, "args": [...]} or {"op": "set", "path": key} steps) without writing; in the next turn apply it only if Allow says ok.',
      },
    ],
  },
];

/** The named-arguments examples, first choice first: the first the agent may call is shown. */
const NAMED_ARGUMENT_EXAMPLES: readonly GuidePart[] = [
  { tool: 'tool.str.Substring', text: 'tool.str.Substring({"input_string": "abc", "start_index": 1, "length": 1})' },
  // The agent reading this document called tool.capsule.Read, so it nearly always may.
  { tool: 'tool.capsule.Read', text: 'tool.capsule.Read({"id": "capsule/askloop"})' },
];

const NAMED_ARGUMENTS = 'Call tools with positional arguments, or with one map of named arguments';
const IDEMPOTENT_WRITES = 'Write tools are idempotent per (session, turn, call position): a replayed turn gets the recorded results instead of acting twice.';

/** The line of a family for the agent, or undefined when it may call none of the family's tools. */
function familyLine(line: FamilyLine, callable: (tool: string) => boolean): string | undefined {
  const parts = line.parts.filter((part) => callable(part.tool)).map((part) => part.text);
  if (parts.length === 0) return undefined;
  const text = parts.join('; ');
  return line.note === undefined ? text : `${text}. ${line.note}`;
}

/**
 * The loop-tools guide for an agent that may call the tools `callable` says yes to (by display name, e.g.
 * `tool.memory.CAS`: in the registry, and allowed by the agent's policy — `callableTool`). A family's line appears
 * only when the agent may call one of its tools, and names only those; the named-arguments example uses
 * `tool.str.Substring`, else `tool.capsule.Read`, else no tool. For an agent that may call every tool it is
 * {@link LOOP_TOOLS_GUIDE}.
 */
export function loopToolsGuide(callable: (tool: string) => boolean): string {
  const families = FAMILY_LINES.map((line) => familyLine(line, callable)).filter((line) => line !== undefined);
  const example = NAMED_ARGUMENT_EXAMPLES.find((candidate) => callable(candidate.tool));
  const named = example === undefined ? `${NAMED_ARGUMENTS}.` : `${NAMED_ARGUMENTS}: ${example.text}.`;
  return ['Loop-support tools', '', ...[...families, named, IDEMPOTENT_WRITES].map((line) => `- ${line}`)].join('\n');
}

/** The guide for an agent that may call every tool it names (the default agent's): what `content` holds. */
export const LOOP_TOOLS_GUIDE = loopToolsGuide(() => true);
