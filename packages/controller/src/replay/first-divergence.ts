/**
 * Compares a replayed session with its recording, turn by turn, and names the
 * first field that differs: the digest, the decision, the OUTPUT, the tools
 * called (by name, in order), then the number of turns; with the replayed turn's failure when the recording had
 * another (it usually says why).
 */
import type { ReplayDivergence } from '../ask-loop.ts';
import type { TurnRecord } from '../loop/turn-record.ts';

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

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
      ['decision', a.decision ?? null, b.decision ?? null],
      ['output', a.output, b.output],
      // The calls the recording holds that the replayed program did not make (a replay answers only the calls made).
      ['toolCalls', a.toolCalls.map((call) => call.name), b.toolCalls.map((call) => call.name)],
    ];
    const failure = b.failure !== undefined && b.failure.code !== a.failure?.code ? { replayedFailure: { code: b.failure.code, message: b.failure.message } } : {};
    for (const [field, x, y] of fields) if (!same(x, y)) return { turnIndex, field, recorded: x, replayed: y, ...failure };
  }
  return null;
}
