/**
 * Which form a record's `toolCalls` were written in, so replay can read a
 * recording from before a call still out when the run ended was kept
 * (`unfinished`) as that recording was written — and only such a recording:
 * a run today that timed out while it computed has no unfinished call either,
 * and a replay of it that times out inside a call has diverged.
 */
import type { TurnRecord } from './turn-record.ts';

/**
 * The form every run writes its `toolCalls` in now (`TurnRecord.toolCallsVersion`): 2 since a call still out when the
 * run ended is kept in its place, marked `unfinished`. Records without it are of the form before (1).
 */
export const TOOL_CALLS_VERSION = 2;

/**
 * Whether `record`'s calls were written before calls still out when the run ended were kept: such a recording left
 * out the call its run was cut in, or showed only the error the tool host gave it at the deadline. A record without
 * `toolCallsVersion` that holds an unfinished call was written in between (by a version that kept them before it
 * said so): it is of the new form.
 */
export function callsPredateUnfinished(record: TurnRecord): boolean {
  return record.toolCallsVersion === undefined && !record.toolCalls.some((call) => call.unfinished !== undefined);
}
