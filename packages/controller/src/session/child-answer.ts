import type { JsonValue } from '@askloop/interpreter';
import type { LoopResult } from '../ask-loop.ts';

/**
 * What an `ask` gives its run for a child loop that stopped: the child's DONE
 * result, or a `LOOP_ASK_FAILED` error naming how it ended. The live loop and
 * replay both answer through here, so a replayed `ask` fails with the same
 * message, and the replayed OUTPUT that quotes it matches the recording.
 */
export function childAnswer(agent: string, child: Pick<LoopResult, 'sid' | 'status' | 'reason' | 'result'>): JsonValue {
  if (child.status === 'DONE') return child.result;
  throw Object.assign(new Error(`ask ${JSON.stringify(agent)} ended ${child.status}${child.reason === null ? '' : ` (${child.reason})`} in session ${child.sid}`), { code: 'LOOP_ASK_FAILED' });
}
