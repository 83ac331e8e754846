/**
 * The loop: steps a session through its gate until it stops (DONE, HALT,
 * PAUSE) or, for `step`, once. Each step is one exclusive turn, so two
 * callers driving the same session interleave whole turns and never overlap.
 */
import type { LoopResult } from '../ask-loop.ts';
import { canStep, stepSession } from '../session/step-session.ts';
import type { SessionGate } from '../session/session-gate.ts';
import type { LoopContext } from './loop-context.ts';
import { isoNow } from './loop-context.ts';
import { loopResult } from './loop-result.ts';

/** Drives the session of `context`; `once` runs a single step. */
export async function driveLoop(context: LoopContext, gate: SessionGate, options: { readonly once?: boolean; readonly resumed?: boolean } = {}): Promise<LoopResult> {
  const { sid } = context.session;
  context.emit({ type: 'loop-start', sid, loopId: context.loopId, ts: isoNow(context), agent: context.agent.name, model: context.agent.model, resumed: options.resumed === true, ...(context.session.parentSid === undefined ? {} : { parentSid: context.session.parentSid }) });
  let result: LoopResult;
  try {
    for (;;) {
      const last = await gate.run(sid, () => stepSession(context));
      if (options.once === true || last?.phase !== 'decided' || last.decision?.kind !== 'CONTINUE' || !canStep(last)) break;
    }
    const turns = await context.store.listTurns(sid);
    // The stored session's last decision stands in when no turn decided (a session halted before its first turn).
    const before = turns.some((turn) => turn.decision !== undefined) ? undefined : (await context.store.getSession(sid))?.lastDecision;
    result = loopResult(sid, turns, context.agent.dialect, before);
  } catch (error) {
    // Observers that opened something at loop-start (spans, progress) must hear that this call is over.
    const code = (error as { code?: unknown } | null)?.code;
    context.emit({ type: 'loop-error', sid, loopId: context.loopId, ts: isoNow(context), code: typeof code === 'string' ? code : 'LOOP_ERROR' });
    throw error;
  }
  context.emit({ type: 'loop-end', sid, loopId: context.loopId, ts: isoNow(context), result });
  return result;
}
