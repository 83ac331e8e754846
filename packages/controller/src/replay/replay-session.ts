/**
 * Replay: the same loop over a copy of the session in a scratch store, with
 * the recorded replies (a replay model), the recorded tool results (a replay
 * tool bridge), the recorded approvals, the recorded answers of child `ask`
 * loops and the recorded times of each turn (which the loop's wall-clock
 * ceiling counts); then the first divergence from the recording.
 *
 * A replay goes as far as the recording does: turn by turn up to its last
 * decided (or paused) turn, never into a turn the recording does not have (a
 * session still running, one whose next turn is under way). A last turn that
 * was cancelled (HALT ERR_CANCELLED, which `resume` runs again) is cancelled
 * again where the recording shows it was: see {@link recordedCancel}.
 */
import type { JsonValue } from '@askloop/interpreter';
import { createCallCounter } from '@askloop/tools';
import type { ReplayReport } from '../ask-loop.ts';
import type { LoopEvent } from '../events/loop-event.ts';
import type { AskCall } from '../interpreter/loop-interpreter.ts';
import { driveLoop } from '../loop/drive-loop.ts';
import type { AskOrigin, LoopContext } from '../loop/loop-context.ts';
import { loopResult } from '../loop/loop-result.ts';
import type { TurnRecord } from '../loop/turn-record.ts';
import { childAnswer } from '../session/child-answer.ts';
import { applyApproval } from '../session/apply-approval.ts';
import type { RunAdmission } from '../session/run-admission.ts';
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
    // The recorded child's spend, so the replayed turn counts it against the ceilings as the live one did.
    if (asked.usage !== undefined) origin.ended?.(asked.usage);
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

/**
 * Where the recording's last turn was cancelled, when it was (HALT ERR_CANCELLED: the caller's signal, `close()`, a
 * lost lease). The cancel came from outside the loop, so the replay cancels the replayed turn at the same place, and
 * the turn is then recorded, decided and compared as it was — digest, decision, OUTPUT:
 * - `model`: while the model answered (no reply recorded): the recorded model cancels its call and fails as it did;
 * - `slot`: while the turn waited for a slot to run in (a reply, no run): the replayed turn finds none free either
 *   (a turn paused for approval finds none in the step that pauses it: it is cancelled before the pause, which
 *   records nothing compared);
 * - `program`: in its program. In a call still out when it was cut (the record keeps it, `unfinished`): cancelled
 *   as the replayed program makes that call, after its `calls` finished ones (the recorded tools never answer it),
 *   so the replayed record keeps it unfinished too. Else after its recorded tool calls (`calls`): cancelled as the
 *   last of them ends, or as the run starts when it recorded none. A cancelled run keeps no OUTPUT, so where
 *   exactly after that call the live one was cut changes nothing recorded; a program that makes other calls before
 *   it (another tool, other arguments, fewer calls) is not cut and its divergence is reported as any other;
 * - `decision`: after the turn had run (`ran`) or failed before running, as it was being decided.
 * Reproducing the cancel, rather than comparing the turn only up to it, keeps the comparison whole: the cancelled
 * turn's digest, decision and OUTPUT are compared like any other's (a cancelled run records an empty OUTPUT whatever
 * its program would have written, so they are the recorded ones), and the replayed program is cut only once it has
 * made the recorded calls, so anything else it does before the cancel is still reported.
 */
type RecordedCancel =
  | { readonly at: 'model' | 'slot' }
  | { readonly at: 'program'; readonly calls: number; readonly inCall: boolean }
  | { readonly at: 'decision'; readonly ran: boolean };

/** How `turn` was cancelled, or undefined when it was not (or is no decided turn). */
function recordedCancel(turn: TurnRecord | undefined): RecordedCancel | undefined {
  if (turn?.phase !== 'decided' || turn.decision?.kind !== 'HALT' || turn.decision.reason !== 'ERR_CANCELLED') return undefined;
  if (turn.failure?.kind !== 'cancelled') return { at: 'decision', ran: turn.digest !== null };
  if (turn.reply === undefined) return { at: 'model' };
  // The interpreter's error: the run was cut. None: the turn never ran (it waited for a slot).
  if (turn.error === undefined) return { at: 'slot' };
  // Only a run's last call can be unfinished: it was out when the cancel came.
  const inCall = turn.toolCalls.at(-1)?.unfinished !== undefined;
  return { at: 'program', calls: turn.toolCalls.length - (inCall ? 1 : 0), inCall };
}

/** Why a replayed turn is cancelled (as its recording was). */
const CANCELLED_AS_RECORDED = new DOMException('the recorded turn was cancelled here', 'AbortError');

/**
 * `context` for replaying turn `turnIndex`, whose recording was cancelled as `cut` says: its signal is aborted where
 * the recording's was. A replayed call or ask that diverges from the recording leaves the turn uncut.
 */
function cancelledContext(context: LoopContext, cut: RecordedCancel, turnIndex: number, cancel: AbortController): LoopContext {
  let diverged = false;
  const noted = (error: unknown): never => {
    if ((error as { code?: unknown } | null)?.code === 'LOOP_REPLAY_DIVERGED') diverged = true;
    throw error;
  };
  const cutHere = (event: LoopEvent): boolean => {
    if (cut.at === 'program') {
      // Cut in the call itself, as the replayed program makes it (see `notingTools`).
      if (cut.inCall) return false;
      if (cut.calls === 0) return event.type === 'phase' && event.phase === 'executing';
      // Emitted as the call ends, before the run goes on: aborted here, the run ends at once, this call recorded.
      return event.type === 'tool-call' && event.call.index === cut.calls - 1 && !diverged;
    }
    if (cut.at === 'decision') return cut.ran ? event.type === 'phase' && event.phase === 'scanning' : event.type === 'prepared' && !event.ok;
    return false;
  };
  // No slot is free: the turn waits, and is cancelled waiting.
  const noSlot: RunAdmission = {
    tryAcquire: () => undefined,
    acquire: async () => {
      cancel.abort(CANCELLED_AS_RECORDED);
      return undefined;
    },
    running: 0,
    waiting: 0,
  };
  const { replayTools, ask } = context;
  const notingTools: LoopContext['replayTools'] =
    replayTools &&
    ((turn, catalog, bounds) => {
      const tools = replayTools(turn, catalog, bounds);
      let made = 0;
      return {
        ...tools,
        call: (name, args, options) => {
          const index = made;
          made += 1;
          let answer: unknown;
          try {
            answer = tools.call(name, args, options);
          } catch (error) {
            return noted(error);
          }
          // The recorded call that was out when the cancel came, made again as recorded (a divergent one throws above).
          if (turn.turnIndex === turnIndex && cut.at === 'program' && cut.inCall && index === cut.calls && !diverged) cancel.abort(CANCELLED_AS_RECORDED);
          return answer;
        },
      };
    });
  return {
    ...context,
    signal: cancel.signal,
    emit: (event) => {
      if ('turnIndex' in event && event.turnIndex === turnIndex && cutHere(event)) cancel.abort(CANCELLED_AS_RECORDED);
    },
    ...(cut.at === 'slot' ? { admission: noSlot } : {}),
    ...(notingTools === undefined ? {} : { replayTools: notingTools }),
    ...(ask === undefined ? {} : { ask: (request: AskCall, origin: AskOrigin) => ask(request, origin).catch(noted) }),
  };
}

/**
 * Replays session `session` of `store`; `contextFor` builds the live context with overrides; `keep` wraps the
 * replay's scratch store as the live store is (its writes hiding the known secrets, as the recording's were).
 */
export async function replaySession(
  store: TranscriptStore,
  session: SessionRecord,
  contextFor: (overrides: Partial<LoopContext>) => LoopContext,
  now: () => string,
  keep: (scratch: TranscriptStore) => TranscriptStore = (scratch) => scratch,
): Promise<ReplayReport> {
  const { sid } = session;
  const recorded = await store.listTurns(sid);
  const children = [...(await store.listSessions({ parentSid: sid }))].sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1));
  const replayStore = keep(createMemoryTranscriptStore());
  const { lastDecision: _last, tally: _tally, ...fresh } = session;
  await replayStore.createSession({ ...fresh, status: 'running', turns: 0 });
  const byIndex = new Map(recorded.map((turn) => [turn.turnIndex, turn]));
  const replayAsk = recordedAnswers(byIndex, children);
  // As far as the recording goes: its last decided turn, or the one paused for approval. A turn after it is under
  // way (or was cut short by a crash) and has no decision to compare; the session may go on, its replay stops there.
  const through = recorded.findLast((turn) => turn.phase === 'decided' || turn.phase === 'awaiting-approval')?.turnIndex ?? 0;
  const cut = recordedCancel(byIndex.get(through));
  const cancel = new AbortController();
  // The recorded replies stand in for the model: a replay never asks one, so it needs no provider of the agent's
  // model (a session run on a scripted model replays without its script), not even for the live context read here.
  const model = createRecordedModel(recorded, () => cancel.abort(CANCELLED_AS_RECORDED));
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
    recordedSpend: (turn) => {
      const recordedTurn = byIndex.get(turn.turnIndex);
      if (recordedTurn?.phase !== 'decided') return undefined;
      const { inputTokens, outputTokens, costUsd } = recordedTurn.usage;
      return { inputTokens, outputTokens, costUsd };
    },
    sessionCounter: createCallCounter(),
    // `ask` only where the live loop allowed it, so the check refuses what it refused.
    ...(live.ask === undefined ? {} : { ask: replayAsk }),
  });
  const lastContext = cut === undefined ? context : cancelledContext(context, cut, through, cancel);
  const gate = createSessionGate();
  // One step at a time, so that none runs a turn past the recording's last.
  let decided = 0;
  while (decided < through) {
    const result = await driveLoop(decided + 1 === through ? lastContext : context, gate, { once: true, resumed: decided > 0 });
    if (result.status === 'RUNNING' && result.turns > decided) {
      decided = result.turns;
      continue;
    }
    if (result.status !== 'PAUSED') break;
    // A paused turn takes the decision a person recorded for it. (A v1 `await` turn is decided already: approved,
    // the next turn runs only when the recording has it; denied, the turn is decided again, HALT.)
    const pausedTurn = result.turns + (result.reason === 'AWAITING_APPROVAL' ? 1 : 0);
    const approval = byIndex.get(pausedTurn)?.approval;
    if (approval?.state !== 'approved' && approval?.state !== 'denied') break;
    await applyApproval(replayStore, sid, approval.state === 'approved', approval.note, now());
    decided = result.turns;
  }
  const replayed = await replayStore.listTurns(sid);
  const divergence = firstDivergence(recorded.filter((turn) => turn.turnIndex <= through), replayed);
  return { sid, matched: divergence === null, turns: replayed.length, divergence };
}
