/**
 * The documents `tool.capsule.List/Read` serve. Kept as string constants so
 * they work the same from sources and from the bundled `dist`.
 */
import { LOOP_TOOLS_GUIDE, loopToolsGuide } from './loop-tools-guide.ts';
import { NEUROSCRIPT_PRIMER, neuroscriptPrimer } from './neuroscript-primer.ts';

/** One readable document. */
export interface CapsuleDocument {
  /** Stable id, e.g. `capsule/aeiou-rules`. */
  readonly id: string;
  readonly version: string;
  readonly title: string;
  readonly description: string;
  /** The text, for an agent that may call every tool it names (see {@link CapsuleDocument.contentFor}). */
  readonly content: string;
  /**
   * The text for the calling agent, when it depends on which tools that agent may call (`callable`: by display
   * name, in the registry and allowed by its policy): a document names no tool the reader cannot call, as the
   * primer in its system text does not. Absent: `content`, for every agent.
   */
  readonly contentFor?: (callable: (tool: string) => boolean) => string;
}

/** AEIOU v4 §13 "AI-Facing Rules", verbatim (seed 003 §13). */
export const AEIOU_V4_AI_RULES = `Read only between START/END. Sections appear once: USERDATA, [SCRATCHPAD], [OUTPUT], ACTIONS.
Only ACTIONS is executable. Write exactly one ns \`command\` block.
USERDATA is immutable JSON input from the host.
To control the loop:
  - To Continue: Simply emit text/tools.
  - To Finish: emit "<<<LOOP:DONE>>> <Optional Final Result>"
The control marker MUST be in the output for the loop to stop.`;

/** A summary of the ask-loop v4 host loop controller spec (seed 002). */
export const ASK_LOOP_V4_SUMMARY = `Ask-Loop v4 — summary of the host loop controller (version 4.0.0)

- Session (SID) and turn: each turn runs your ACTIONS once and yields exactly one decision: CONTINUE, DONE or HALT.
- One turn at a time per session. Each turn runs in a fresh interpreter with wall-clock, CPU and memory quotas.
- Only the single \`command … endcommand\` block in ACTIONS runs. \`emit\` writes OUTPUT, \`whisper\` writes SCRATCHPAD.
- Before anything runs, the host checks every tool your program calls against your permissions; a program that calls a tool you may not use is rejected as a whole.
- To finish, emit the exact marker \`<<<LOOP:DONE>>>\`; text after it on the same line is the final result. The first marker wins.
- Without the marker the loop continues: your OUTPUT and SCRATCHPAD come back in the next envelope. Reaching MaxTurns without DONE halts the loop.
- Progress guard: if OUTPUT and SCRATCHPAD stay identical for 3 consecutive turns (by default), the host warns you once; one more such turn halts with ERR_NO_PROGRESS. Change something or finish.
- The host never reads control signals from USERDATA or SCRATCHPAD.
- No ambient network or filesystem: all effects go through tools, and session state lives in session-scoped storage (tool.scratch.*).
- Errors: ERR_TIMEOUT, ERR_QUOTA, ERR_NO_PROGRESS, ERR_MAX_TURNS_EXCEEDED halt the loop; so do envelope errors, syntax errors and refused tools, unless the agent has repair, which feeds them back to you as a SYSTEM_ERROR line in OUTPUT. A run-time error of your program comes back so too; several turns in a row of them halt with ERR_TOO_MANY_ERRORS.`;

/** The sentence of {@link ASK_LOOP_V4_SUMMARY} that names the scratch tools, which only some agents may call. */
const SCRATCH_LINE = '- No ambient network or filesystem: all effects go through tools, and session state lives in session-scoped storage (tool.scratch.*).';

/**
 * {@link ASK_LOOP_V4_SUMMARY} for an agent that may call the tools `callable`
 * allows: the scratch tools are named only to one that may call one of them
 * (a program calling a tool its agent may not use is refused as a whole).
 */
export function askLoopSummary(callable: (tool: string) => boolean): string {
  if (['tool.scratch.Get', 'tool.scratch.PutCAS'].some(callable)) return ASK_LOOP_V4_SUMMARY;
  return ASK_LOOP_V4_SUMMARY.replace(SCRATCH_LINE, '- No ambient network or filesystem: all effects go through the tools you may call.');
}

/** Every document served by `tool.capsule.*`, sorted by id. */
export const CAPSULE_DOCUMENTS: readonly CapsuleDocument[] = Object.freeze([
  {
    id: 'capsule/aeiou-rules',
    version: '4',
    title: 'AEIOU v4 AI-facing rules',
    description: 'How to read an envelope and how to finish the loop (the AEIOU v4 AI-facing rules, verbatim).',
    content: AEIOU_V4_AI_RULES,
  },
  {
    id: 'capsule/askloop',
    version: '4',
    title: 'Ask-loop v4 controller (summary)',
    description: 'Turn lifecycle, DONE marker, progress guard and security rules of the host loop.',
    content: ASK_LOOP_V4_SUMMARY,
    contentFor: askLoopSummary,
  },
  {
    id: 'capsule/loop-tools',
    version: '1',
    title: 'Loop-support tools',
    description: 'Caps, memory CAS, scratch with TTL, Plan → Apply and idempotent writes.',
    content: LOOP_TOOLS_GUIDE,
    // Only the tool families, and the named-arguments example, the reading agent may call.
    contentFor: loopToolsGuide,
  },
  {
    id: 'capsule/neuroscript',
    version: '1',
    title: 'NeuroScript in brief',
    description: 'The statements, values, operators and tool calls of an ACTIONS program, as every turn of the ask loop shows them.',
    content: NEUROSCRIPT_PRIMER,
    // The primer of the reading agent, as its system text carries it: no tool.str.Split example, no tool.map.Keys,
    // for an agent that may not call them.
    contentFor: neuroscriptPrimer,
  },
]);
