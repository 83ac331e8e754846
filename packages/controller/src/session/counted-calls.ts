/**
 * A session's tool-call counter rebuilt from its stored turns, for a
 * controller that continues a session another controller (or process) ran:
 * the policy's per-session limits (`policy.limits.perSession`, a tool's
 * `perSession`) then count the calls made before, as they do live.
 */
import { countCallIn, createCallCounter, type CallCounter, type PolicyLimits } from '@askloop/tools';
import type { TurnRecord } from '../loop/turn-record.ts';
import { ASK_COUNTED_AS } from './count-ask.ts';

/**
 * Recorded calls the tool host refused before counting them, by the code the
 * script saw: a policy or scope refusal (`SCRIPT_TOOL_DENIED`), an unknown
 * tool, bad arguments; and, among other tool errors (whose message keeps the
 * tool host's code in brackets), a call cancelled before it started or a
 * replay conflict. Every other recorded call, failed or not, was counted. A
 * handler that itself throws an argument error after the count makes the
 * rebuilt count one lower than the live one was.
 */
const REFUSED_CODES = new Set(['SCRIPT_TOOL_DENIED', 'SCRIPT_TOOL_NOT_FOUND', 'SCRIPT_TOOL_ARGUMENTS']);
const REFUSED_TOOL_ERROR = /\[(TOOL_CANCELLED|TOOL_REPLAY_DIVERGED|TOOL_REPLAY_IN_PROGRESS)\]/;

function wasCounted(error: { readonly code: string; readonly message: string } | undefined): boolean {
  if (error === undefined) return true;
  if (REFUSED_CODES.has(error.code)) return false;
  return !(error.code === 'SCRIPT_TOOL_ERROR' && REFUSED_TOOL_ERROR.test(error.message));
}

/** True when `limits` bound calls per session (in total or for some tool): only then does the count matter. */
export function limitsCallsPerSession(limits: PolicyLimits): boolean {
  return limits.perSession !== undefined || Object.values(limits.tools ?? {}).some((limit) => limit.perSession !== undefined);
}

/** An ask refused before it was counted (not permitted, or over the limit); every other recorded ask was counted. */
const ASK_NOT_COUNTED = new Set(['SCRIPT_ASK_NOT_ALLOWED', 'POLICY_CALL_LIMIT']);

/**
 * The calls of `turns` the tool host counted, in total and per tool, as
 * `policy.countCall` counts them, and their asks (`countAsk`). A call an
 * earlier run of a turn left unfinished (`earlierUnfinished`, a run `resume`
 * cut short) counts too: it was counted when it started and may have acted,
 * and the run that replaces it makes it again (a write that made no
 * idempotence record acts again), so leaving it out let a tool limited to one
 * call per session act twice.
 */
export function countedCalls(turns: readonly TurnRecord[]): CallCounter {
  const counter = createCallCounter();
  for (const turn of turns) {
    for (const call of turn.earlierUnfinished ?? []) if (wasCounted(call.error)) countCallIn(counter, call.name);
    for (const call of turn.toolCalls) if (wasCounted(call.error)) countCallIn(counter, call.name);
    for (const ask of turn.asks ?? []) if (ask.error?.code === undefined || !ASK_NOT_COUNTED.has(ask.error.code)) countCallIn(counter, ASK_COUNTED_AS);
  }
  return counter;
}
