/**
 * The decision-log entry of a decided turn (seed 002 §9, seed 003 §10),
 * derived from the stored record alone, so it can be rebuilt for any session.
 */
import type { DecisionLogEntry, TurnRecord } from './turn-record.ts';

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** The entry for `record` (which must carry a decision). */
export function decisionLogEntry(record: TurnRecord): DecisionLogEntry {
  const decision = record.decision;
  if (decision === undefined) throw new TypeError(`turn ${record.turnIndex} of ${record.sid} has no decision yet`);
  const reason = decision.kind === 'HALT' || decision.kind === 'PAUSE' ? decision.reason : decision.kind === 'CONTINUE' ? (decision.next ?? null) : null;
  return {
    ts: record.endedAt ?? record.startedAt,
    sid: record.sid,
    loop_id: record.loopId,
    turn_index: record.turnIndex,
    decision: decision.kind,
    reason,
    latency_ms: record.timings.total ?? 0,
    model_latency_ms: record.reply?.latencyMs ?? 0,
    output_bytes: bytes(record.output),
    scratch_bytes: bytes(record.scratchpad),
    ...(decision.kind === 'DONE' ? { final_result: decision.result } : {}),
  };
}
