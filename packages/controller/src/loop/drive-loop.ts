/**
 * The loop: steps a session through its gate until it stops (DONE, HALT,
 * PAUSE) or, for `step`, once. Each step is one exclusive turn, so two
 * callers driving the same session interleave whole turns and never overlap.
 */
import { followSignal } from '@askloop/providers';
import type { LoopResult } from '../ask-loop.ts';
import { canStep, stepSession, type StepState } from '../session/step-session.ts';
import { leaseSignalOf } from '../session/lease-scope.ts';
import type { SessionGate } from '../session/session-gate.ts';
import { writesUntilLeaseLost } from '../session/writes-until-lease-lost.ts';
import type { LoopContext } from './loop-context.ts';
import { isoNow } from './loop-context.ts';
import { loopResult, loopResultOf } from './loop-result.ts';
import type { TurnRecord } from './turn-record.ts';

/**
 * Steps the session under its lease (inside the gate): the lease's signal joins the step's own, so a host whose lease
 * is taken over mid-step stops asking the model and running the program; and the step's writes are refused from then
 * on, so the stopped step records nothing (not even its cancellation) over the turn of the host that owns the session
 * now. The signals are followed, not composed (`followSignal`, `@askloop/providers`), and unfollowed when the step ends.
 */
async function stepUnderLease(context: LoopContext): Promise<StepState> {
  const lease = leaseSignalOf(context.session.sid);
  if (lease === undefined) return stepSession(context);
  const store = writesUntilLeaseLost(context.store, lease);
  if (context.signal === undefined) return stepSession({ ...context, signal: lease, store });
  const joined = new AbortController();
  const unfollowCaller = followSignal(context.signal, joined);
  const unfollowLease = followSignal(lease, joined);
  try {
    return await stepSession({ ...context, signal: joined.signal, store });
  } finally {
    unfollowCaller();
    unfollowLease();
  }
}

/** Drives the session of `context`; `once` runs a single step. */
export async function driveLoop(context: LoopContext, gate: SessionGate, options: { readonly once?: boolean; readonly resumed?: boolean } = {}): Promise<LoopResult> {
  const { sid } = context.session;
  context.emit({ type: 'loop-start', sid, loopId: context.loopId, ts: isoNow(context), agent: context.agent.name, model: context.agent.model, resumed: options.resumed === true, ...(context.session.parentSid === undefined ? {} : { parentSid: context.session.parentSid }) });
  let result: LoopResult;
  try {
    let state: StepState;
    for (;;) {
      state = await gate.run(sid, () => stepUnderLease(context), context.signal, (behind) => context.emit({ type: 'waiting', sid, loopId: context.loopId, ts: isoNow(context), behind }));
      const { last } = state;
      if (options.once === true || last?.phase !== 'decided' || last.decision?.kind !== 'CONTINUE' || !canStep(last)) break;
    }
    const { last, tally } = state;
    if (last?.decision !== undefined) result = loopResultOf(sid, tally, last as TurnRecord & { decision: NonNullable<TurnRecord['decision']> }, context.agent.dialect);
    else {
      // No turn decided (a session halted before its first turn: the stored session's last decision stands in) or
      // a turn left mid-way: from the records, as any reader would.
      const turns = await context.store.listTurns(sid);
      const before = turns.some((turn) => turn.decision !== undefined) ? undefined : state.session.lastDecision;
      result = loopResult(sid, turns, context.agent.dialect, before);
    }
  } catch (error) {
    // Observers that opened something at loop-start (spans, progress) must hear that this call is over.
    const code = (error as { code?: unknown } | null)?.code;
    context.emit({ type: 'loop-error', sid, loopId: context.loopId, ts: isoNow(context), code: typeof code === 'string' ? code : 'LOOP_ERROR' });
    throw error;
  }
  context.emit({ type: 'loop-end', sid, loopId: context.loopId, ts: isoNow(context), result });
  return result;
}
