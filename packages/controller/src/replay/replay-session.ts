/**
 * Replay: the same loop over a copy of the session in a scratch store, with
 * the recorded replies (a replay model), the recorded tool results (a replay
 * tool bridge), the recorded approvals, the recorded answers of child `ask`
 * loops and the recorded times of each turn (which the loop's wall-clock
 * ceiling counts); then the first divergence from the recording.
 */
import type { JsonValue } from '@askloop/interpreter';
import { createCallCounter } from '@askloop/tools';
import type { ReplayReport } from '../ask-loop.ts';
import type { AskCall } from '../interpreter/loop-interpreter.ts';
import { driveLoop } from '../loop/drive-loop.ts';
import type { AskOrigin, LoopContext } from '../loop/loop-context.ts';
import { loopResult } from '../loop/loop-result.ts';
import type { TurnRecord } from '../loop/turn-record.ts';
import { childAnswer } from '../session/child-answer.ts';
import { applyApproval } from '../session/apply-approval.ts';
import { createSessionGate } from '../session/session-gate.ts';
import { createMemoryTranscriptStore } from '../store/memory-transcript-store.ts';
import type { SessionRecord, TranscriptStore } from '../store/transcript-store.ts';
import { firstDivergence } from './first-divergence.ts';
import { createRecordedModel, createRecordedTools } from './replay-sources.ts';

/**
 * Answers each `ask` of the replayed runs from the recording: what the
 * recorded turn's ask at that place gave its run (the child's result, or the
 * error it threw), naming the same child session. An ask of another agent
 * than the recorded one, or one more than were recorded, is
 * `LOOP_REPLAY_DIVERGED`. The last ask of a turn that timed out, recorded
 * without an outcome (the run ran out of time while the child worked), does
 * not answer until its run's signal aborts it: the replayed run ends the same
 * way, at the same limit. Records from before turns kept their asks are
 * answered from the session's children no record names, oldest first, with
 * what each child ended with.
 */
function recordedAnswers(recorded: ReadonlyMap<number, TurnRecord>, children: readonly SessionRecord[]): (request: AskCall, origin: AskOrigin) => Promise<JsonValue> {
  const named = new Set([...recorded.values()].flatMap((turn) => (turn.asks ?? []).flatMap((ask) => (ask.sid === undefined ? [] : [ask.sid]))));
  const unnamed = children.filter((child) => !named.has(child.sid));
  return async (request, origin) => {
    const turn = recorded.get(origin.turnIndex);
    const asks = turn?.asks;
    if (asks === undefined) {
      const child = unnamed.shift();
      if (child === undefined) throw Object.assign(new Error('ask: the recording has no child session here'), { code: 'LOOP_ASK_FAILED' });
      origin.started(child.sid);
      return childAnswer(request.agent, loopResult(child.sid, [], 'v4', child.lastDecision));
    }
    const asked = asks[origin.index];
    if (asked?.agent !== request.agent) {
      const was = asked === undefined ? 'not made' : `of ${JSON.stringify(asked.agent)}`;
      throw Object.assign(new Error(`replay: ask ${origin.index} of turn ${origin.turnIndex} was ${was} when recorded, now of ${JSON.stringify(request.agent)}`), { code: 'LOOP_REPLAY_DIVERGED' });
    }
    if (asked.sid !== undefined) origin.started(asked.sid);
    if (asked.error !== undefined) throw Object.assign(new Error(asked.error.message), asked.error.code === undefined ? {} : { code: asked.error.code });
    if (asked.result === undefined) {
      // Its run gave up waiting: wait as it did, until the run's own limit ends it and its signal aborts the ask.
      if (turn?.failure?.kind === 'timeout' && origin.index === asks.length - 1) return untilAborted(request.signal);
      throw Object.assign(new Error(`replay: ask ${origin.index} of turn ${origin.turnIndex} had not ended when its run did`), { code: 'LOOP_REPLAY_DIVERGED' });
    }
    return asked.result;
  };
}

/** Never settles unless `signal` aborts (at once if it has), then rejects with its reason. */
function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise<never>((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** Replays session `session` of `store`; `contextFor` builds the live context with overrides. */
export async function replaySession(store: TranscriptStore, session: SessionRecord, contextFor: (overrides: Partial<LoopContext>) => LoopContext, now: () => string): Promise<ReplayReport> {
  const { sid } = session;
  const recorded = await store.listTurns(sid);
  const children = [...(await store.listSessions({ parentSid: sid }))].sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1));
  const replayStore = createMemoryTranscriptStore();
  const { lastDecision: _last, tally: _tally, ...fresh } = session;
  await replayStore.createSession({ ...fresh, status: 'running', turns: 0 });
  const byIndex = new Map(recorded.map((turn) => [turn.turnIndex, turn]));
  const replayAsk = recordedAnswers(byIndex, children);
  // The recorded replies stand in for the model: a replay never asks one, so it needs no provider of the agent's
  // model (a session run on a scripted model replays without its script), not even for the live context read here.
  const model = createRecordedModel(recorded);
  const live = contextFor({ model });
  const context = contextFor({
    store: replayStore,
    // A replay is not a run: the controller's metrics, listeners and plugins' event hooks see none of it (a listener
    // that replays the session it hears of would hear its own replay, and the counters would count its turns twice).
    emit: () => {},
    model,
    replayTools: (turn, catalog, bounds) => createRecordedTools(byIndex.get(turn.turnIndex), turn, catalog, bounds, live.clock),
    // A decided recorded turn's times (a turn the recording left undecided has no total: the replay measures its own).
    recordedTimings: (turn) => {
      const timings = byIndex.get(turn.turnIndex)?.timings;
      return timings?.total === undefined ? undefined : timings;
    },
    sessionCounter: createCallCounter(),
    // `ask` only where the live loop allowed it, so the check refuses what it refused.
    ...(live.ask === undefined ? {} : { ask: replayAsk }),
  });
  const gate = createSessionGate();
  let result = await driveLoop(context, gate);
  // A paused turn takes the decision a person recorded for it.
  while (result.status === 'PAUSED') {
    const pausedTurn = result.turns + (result.reason === 'AWAITING_APPROVAL' ? 1 : 0);
    const approval = byIndex.get(pausedTurn)?.approval;
    if (approval?.state !== 'approved' && approval?.state !== 'denied') break;
    await applyApproval(replayStore, sid, approval.state === 'approved', approval.note, now());
    result = await driveLoop(context, gate, { resumed: true });
  }
  const replayed = await replayStore.listTurns(sid);
  const divergence = firstDivergence(recorded, replayed);
  return { sid, matched: divergence === null, turns: replayed.length, divergence };
}
