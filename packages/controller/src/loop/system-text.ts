/**
 * The system text of every turn (the Go host lost its instructions after
 * turn 1): the envelope rules, the dialect's control rules, a NeuroScript
 * primer (the rules ask for a `command` block; the primer says what one
 * holds, as the Go host's first-turn bootstrap did; it names no tool the
 * agent may not call, `neuroscriptPrimer`), the host's rules for
 * this agent (the reply's form, what ends the session, the limits: see
 * `host-rules.ts`), the agent's own instructions, the policy-filtered tool catalogue, the remaining budget, and
 * a note when the turn is a repair, a nudge or the final answer-now turn.
 */
import { AEIOU_V4_AI_RULES, callableTool, NEUROSCRIPT_PRIMER, neuroscriptPrimer, type Policy, type ToolRegistry } from '@askloop/tools';
import type { ResolvedAgentDefinition } from '../agent/agent-definition.ts';
import { hostRulesText } from './host-rules.ts';
import type { TurnKind } from './turn-record.ts';

/** The v1 dialect's control rules (seed 001): explicit signals, precedence, the approval pause. */
export const V1_CONTROL_RULES = `Read only between START/END. Sections appear once: USERDATA, [SCRATCHPAD], [OUTPUT], ACTIONS.
Only ACTIONS is executable. Write exactly one ns \`command\` block.
USERDATA is immutable JSON input from the host.
To control the loop (v1), emit a control JSON line first, e.g. {"loop":"continue","notes":"..."}, or a marker:
  [[loop:continue]]  [[loop:done]]  [[loop:halt:reason=...]]  [[loop:abort:reason=...]]  [[loop:await:approval_id=...]]
Only an explicit continue starts another turn; without a signal the loop ends with your OUTPUT.
When signals conflict: abort > halt > await > done > continue.`;

/** What is left of the loop's ceilings, shown to the model. */
export interface RemainingBudget {
  readonly turn: number;
  readonly maxTurns: number;
  readonly tokens?: number;
  readonly costUsd?: number;
  readonly fuel?: number;
  readonly toolCalls?: number;
}

const KIND_NOTES: Record<Exclude<TurnKind, 'normal'>, string> = {
  repair: 'Your previous ACTIONS failed before or while running; the SYSTEM_ERROR lines in OUTPUT say why and where. Fix them and try again.',
  nudge: 'You are repeating yourself: your last turns produced the same OUTPUT and SCRATCHPAD. Change your approach or finish now; another identical turn halts the loop.',
  'answer-now': 'This is your last turn: the loop has reached its limit. Answer now with the best result you have, and finish.',
};

function budgetLine(budget: RemainingBudget): string {
  // The answer-now turn comes after the last one allowed: "turn 3 of 2" read as a miscount.
  // The last turn allowed says so: "turn 2 of 2" alone left a model planning a next turn that never came.
  const turn = budget.turn > budget.maxTurns ? `turn ${budget.turn}, one past the ${budget.maxTurns} allowed, to answer` : budget.turn === budget.maxTurns ? `turn ${budget.turn} of ${budget.maxTurns}, the last: finish in this turn` : `turn ${budget.turn} of ${budget.maxTurns}`;
  const parts = [turn];
  if (budget.tokens !== undefined) parts.push(`${Math.max(0, budget.tokens)} tokens left`);
  if (budget.costUsd !== undefined) parts.push(`$${Math.max(0, budget.costUsd).toFixed(4)} left`);
  if (budget.fuel !== undefined) parts.push(`${Math.max(0, budget.fuel)} evaluation steps left`);
  if (budget.toolCalls !== undefined) parts.push(`${Math.max(0, budget.toolCalls)} tool calls left`);
  return `Budget: ${parts.join('; ')}.`;
}

/**
 * The part of the system text every turn of the agent shares while its tool
 * catalogue is the same: the rules, the NeuroScript primer (`primer`, the
 * agent's: {@link agentPrimer}), the host's rules for this agent, the agent's
 * instructions, the catalogue.
 */
export function buildSystemBase(agent: ResolvedAgentDefinition, catalogue: string, primer: string = NEUROSCRIPT_PRIMER): string {
  const sections = [agent.dialect === 'v1' ? V1_CONTROL_RULES : AEIOU_V4_AI_RULES, primer, hostRulesText(agent)];
  if (agent.instructions !== '') sections.push(agent.instructions);
  sections.push(catalogue);
  return sections.join('\n\n');
}

/** Where a turn's own part of its system text begins: the budget line, after a blank line. */
const TAIL_MARK = '\n\nBudget: ';

/**
 * How many leading characters of `system` are the agent's shared part (see
 * {@link buildSystemBase}) — 0 when it has no budget line. A store may keep
 * that part once and only the rest with each turn: any text splits and joins
 * back exactly; the boundary only decides how much is shared.
 */
export function sharedSystemLength(system: string): number {
  const at = system.lastIndexOf(TAIL_MARK);
  return at < 0 ? 0 : at;
}

/**
 * The part of the system text that is the turn's own: the remaining budget,
 * the note of a repair, nudge or answer-now turn, and what the host tells the
 * model about the last turn (`notes`: how to fix its run-time error, see
 * `failure-fix.ts`; that a person approved its v1 `await`, see
 * `approval-note.ts`; that its DONE marker did not count, see `marker-note.ts`).
 */
export function systemTail(budget: RemainingBudget, kind: TurnKind, notes: readonly string[] = []): string {
  const parts = [budgetLine(budget)];
  if (kind !== 'normal') parts.push(KIND_NOTES[kind]);
  parts.push(...notes);
  return parts.join('\n\n');
}

/**
 * The system text for one turn: {@link buildSystemBase}, then {@link systemTail}. `primer`: the agent's NeuroScript
 * primer ({@link agentPrimer}; default `NEUROSCRIPT_PRIMER`, whose example calls `tool.str.Split`).
 */
export function buildSystemText(agent: ResolvedAgentDefinition, catalogue: string, budget: RemainingBudget, kind: TurnKind, primer?: string): string {
  return `${buildSystemBase(agent, catalogue, primer)}\n\n${systemTail(budget, kind)}`;
}

/**
 * The NeuroScript primer for an agent whose tools are `registry`'s that `policy` allows (as its catalogue lists
 * them): its example shows no tool the agent cannot call (`neuroscriptPrimer`). The same text its programs read
 * from the capsule `capsule/neuroscript`: both test a tool with `callableTool`.
 */
export function agentPrimer(registry: Pick<ToolRegistry, 'get'>, policy: Pick<Policy, 'check'>): string {
  return neuroscriptPrimer(callableTool(registry, policy));
}

// One shared text per tool registry and agent (the policy is the agent's): sessions of one agent hold one copy.
const bases = new WeakMap<object, WeakMap<ResolvedAgentDefinition, string>>();

/**
 * {@link buildSystemBase} for `agent` on `registry` under `policy` (the
 * agent's), composed once and then shared (keyed by the registry and the
 * agent, so a registry or agent nobody holds any more lets its text go): its
 * catalogue and its primer are of the tools `policy` allows.
 */
export function sharedSystemBase(registry: ToolRegistry, agent: ResolvedAgentDefinition, policy: Policy): string {
  let byAgent = bases.get(registry);
  if (byAgent === undefined) bases.set(registry, (byAgent = new WeakMap()));
  let base = byAgent.get(agent);
  if (base === undefined) byAgent.set(agent, (base = buildSystemBase(agent, registry.catalogue(policy), agentPrimer(registry, policy))));
  return base;
}

/** How many whole system texts {@link sharedSystemText} keeps (each a few KB): the turns in flight mostly share a few budget lines. */
const SHARED_TEXTS = 256;
// By base, then by tail. The base is one string object per agent: looking it up hashes it once (V8 caches a
// string's hash on it) and compares it by identity, where a joined key would be a new string to hash each time.
const texts = new Map<string, Map<string, string>>();
let sharedCount = 0;

/**
 * The whole system text of a turn — `base`, a blank line, `tail` — as one
 * string shared by every turn that has the same two parts (sessions of one
 * agent at the same turn with the same budget left: all of them, when
 * thousands start at once). Read once (a save, a request body), V8 flattens
 * it in place, and every later reader shares that one flat copy instead of
 * flattening a rope of its own. At most {@link SHARED_TEXTS} are kept; then
 * the cache starts over.
 */
export function sharedSystemText(base: string, tail: string): string {
  let byTail = texts.get(base);
  const known = byTail?.get(tail);
  if (known !== undefined) return known;
  if (sharedCount >= SHARED_TEXTS) {
    texts.clear();
    sharedCount = 0;
    byTail = undefined;
  }
  if (byTail === undefined) texts.set(base, (byTail = new Map()));
  const text = `${base}\n\n${tail}`;
  byTail.set(tail, text);
  sharedCount += 1;
  return text;
}
