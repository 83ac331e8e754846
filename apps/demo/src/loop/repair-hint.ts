/**
 * The line after a HALT's `cause:` when the agent's `repair` could have fed
 * the failure back to the model instead (a bad envelope, a syntax error, a
 * refused or denied program, a per-turn quota or timeout): the model never
 * saw the message, and a run with a larger `--repair` would show it to the
 * model to fix. Said when the repair budget was 0 or spent; never for a
 * halt repair cannot help (a ceiling, no progress, a failed model call, a
 * cancel, a run-time error streak).
 */
import { haltReasonOf, isRepairableFailure, type LoopResult } from '@askloop/controller';

/** The agent's repair budget in a stored or given agent definition (`repair`, 0 when it has none). */
export function repairOf(definition: unknown): number {
  const repair = (definition as { repair?: unknown } | null | undefined)?.repair;
  return typeof repair === 'number' && repair > 0 ? repair : 0;
}

/** How many turns in a row before the last decision were repairs (`CONTINUE`, next: repair). */
function repairsBefore(decisions: LoopResult['decisions']): number {
  let count = 0;
  for (let at = decisions.length - 2; at >= 0 && decisions[at]!.decision === 'CONTINUE' && decisions[at]!.reason === 'repair'; at -= 1) count += 1;
  return count;
}

/**
 * The hint for `result` of an agent whose `repair` is `repair`, as one line
 * (no newline), or undefined when the halt is not one the repair budget
 * caused: the failure halted the loop itself (its reason is the failure's)
 * and the repairs before it had used the whole budget.
 */
export function repairHint(result: LoopResult, repair: number): string | undefined {
  const failure = result.failure;
  if (result.status !== 'HALT' || failure === null || !isRepairableFailure(failure) || haltReasonOf(failure) !== result.reason) return undefined;
  const repairs = repairsBefore(result.decisions);
  // Fewer repairs than allowed: a loop ceiling halted with the same reason (ERR_TIMEOUT, ERR_QUOTA), not the budget.
  if (repairs < repair) return undefined;
  const more = Math.max(2, repair + 1);
  const how = `askloop run --repair ${more} (or repair: ${more} in the agent's file or config entry)`;
  if (repair === 0) return `  repair: off (the agent's repair is 0), so the model never saw this message; ${how} feeds such failures back to the model to fix`;
  return `  repair: spent after ${repairs} repair${repairs === 1 ? '' : 's'} in a row (the agent's repair is ${repair}), so the model never saw this message; ${how} allows more`;
}
