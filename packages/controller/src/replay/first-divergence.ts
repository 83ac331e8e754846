/**
 * Compares a replayed session with its recording, turn by turn, and names the
 * first field that differs: the digest, the decision, the OUTPUT, the tools
 * called (by name, in order, and whether each was still out when the run ended), then the number of turns; with the replayed turn's failure when the recording had
 * another (it usually says why). The calls earlier runs of a turn `resume` ran again left unfinished
 * (`earlierUnfinished`) are not compared: a replay runs each turn once, as its last run went.
 */
import type { ReplayDivergence } from '../ask-loop.ts';
import { withCodeOnce } from '../decide/failure-line.ts';
import { callsPredateUnfinished } from '../loop/tool-calls-version.ts';
import type { TurnRecord } from '../loop/turn-record.ts';

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** A turn's calls as compared: each by name, `(unfinished)` after the name of one still out when the run ended. */
function callsOf(turn: TurnRecord, recording?: TurnRecord): string[] {
  // A recording from before unfinished calls were kept left out the call its run timed out in, or showed it failed
  // (cut at the run's deadline): its replay keeps that call, unfinished. Compared as that recording would have it.
  // Only such a recording: one made since that timed out while it computed has no unfinished call either, and a
  // replay of it that times out inside a call has diverged.
  if (recording !== undefined && recording.failure?.kind === 'timeout' && callsPredateUnfinished(recording)) {
    const calls = turn.toolCalls.length === recording.toolCalls.length + 1 && turn.toolCalls.at(-1)?.unfinished !== undefined ? turn.toolCalls.slice(0, -1) : turn.toolCalls;
    return calls.map((call) => call.name);
  }
  return turn.toolCalls.map((call) => (call.unfinished === undefined ? call.name : `${call.name} (unfinished)`));
}

/**
 * A turn's decision as compared: a HALT's message with its code said once, on both sides alike — a recording made
 * before said a provider failure's code twice, and a decision a plugin words so must still match itself.
 */
function comparedDecision(turn: TurnRecord): TurnRecord['decision'] | null {
  const decision = turn.decision;
  if (decision === undefined || decision.kind !== 'HALT') return decision ?? null;
  const message = withCodeOnce(decision.message);
  return message === decision.message ? decision : { ...decision, message };
}

/** The first divergence, or null when every compared field matches. */
export function firstDivergence(recorded: readonly TurnRecord[], replayed: readonly TurnRecord[]): ReplayDivergence | null {
  const count = Math.max(recorded.length, replayed.length);
  for (let index = 0; index < count; index += 1) {
    const a = recorded[index];
    const b = replayed[index];
    const turnIndex = a?.turnIndex ?? b?.turnIndex ?? index + 1;
    if (a === undefined || b === undefined) return { turnIndex, field: 'turn', recorded: a === undefined ? null : a.turnIndex, replayed: b === undefined ? null : b.turnIndex };
    const fields: [string, unknown, unknown][] = [
      ['digest', a.digest, b.digest],
      ['decision.kind', a.decision?.kind ?? null, b.decision?.kind ?? null],
      ['decision', comparedDecision(a), comparedDecision(b)],
      ['output', a.output, b.output],
      // The calls the recording holds that the replayed program did not make (a replay answers only the calls made),
      // and a call still out when the run ended that the replayed run saw end, or the other way round.
      ['toolCalls', callsOf(a), callsOf(b, a)],
    ];
    const failure = b.failure !== undefined && b.failure.code !== a.failure?.code ? { replayedFailure: { code: b.failure.code, message: b.failure.message } } : {};
    for (const [field, x, y] of fields) if (!same(x, y)) return { turnIndex, field, recorded: x, replayed: y, ...failure };
  }
  return null;
}
