/**
 * The live feed's source: polls the store and reports what changed. Polling,
 * not events, because the session may be run by another process writing the
 * same SQLite file; the store is the only thing both share.
 */
import { listTurnRange, type SessionRecord, type TranscriptStore, type TurnRecord } from '@askloop/controller';
import { servedSession } from './orphaned-session.ts';
import { PAGE_TURNS } from './turn-page.ts';

/** What {@link watchSession} reports. */
export interface SessionWatcher {
  /**
   * The session and its latest turns as stored (`firstTurns` of them), once,
   * from the first poll: one report, so a page can draw a long session once
   * rather than once per turn; it asks for earlier turns itself.
   */
  onStart(session: SessionRecord, turns: readonly TurnRecord[]): void;
  /** The session, whenever its status, turn count or update time changed after the start. */
  onSession(session: SessionRecord): void;
  /** A turn, whenever it was saved again after the start (a new phase, its tool calls, its decision) or is new. */
  onTurn(turn: TurnRecord): void;
  /** The session is done, or gone: the feed ends. (A halted one is still watched: `resume` may continue it.) */
  onEnd(): void;
  /**
   * A promise while the reports cannot be taken yet (the live feed's client has
   * not read what it was sent), else undefined: no poll runs until it settles,
   * and the next one reports everything that changed meanwhile at once.
   */
  ready?(): Promise<void> | undefined;
}

/** How often a halted session is polled (a running one every `intervalMs`). */
const HALTED_POLL_MS = 2_000;

/**
 * What changes when the controller saves a turn again. Cheaper than
 * comparing whole records, which carry the system text and envelope.
 */
function turnSignature(turn: TurnRecord): string {
  return [turn.phase, turn.startedAt, turn.endedAt ?? '', turn.reply === undefined ? '' : 'r', turn.toolCalls.length, turn.emits.length, turn.decision?.kind ?? '', turn.approval?.state ?? ''].join('|');
}

/**
 * Polls `sid` every `intervalMs` until `signal` aborts or the session is done
 * (a halted session goes on being polled: `askloop resume` may continue it,
 * often after a failed model call or a Ctrl-C), reporting everything on the first poll (in one `onStart`) and
 * then only changes.
 * The first poll reads the latest `firstTurns` turns (by a ranged read:
 * `listTurnRange`); a later one reads the session row and the last turn, and
 * when the row changed (a turn decided, an approval answered) the turns from
 * the first one not decided when last seen on (else from the last one seen,
 * which a resume may reopen), since a decided turn changes no more: a long
 * session is read neither whole nor from its start, twice a second or once per
 * turn (it was, every time its row changed). A store error (a locked database) skips
 * that poll; the next one retries. While `watcher.ready()` gives a promise (a
 * client that does not read), nothing is polled until it settles.
 */
export function watchSession(store: TranscriptStore, sid: string, intervalMs: number, signal: AbortSignal, watcher: SessionWatcher, resumeArgs = '', firstTurns = PAGE_TURNS): void {
  let sessionSignature = '';
  const turnSignatures = new Map<number, string>();
  /** The turns seen not decided, and the highest index seen: where a read after the row changed starts. */
  const open = new Set<number>();
  let highest = 0;
  const changedFrom = () => (open.size > 0 ? Math.min(...open) : Math.max(highest, 1));
  let timer: NodeJS.Timeout | undefined;
  const poll = async (): Promise<void> => {
    // A client that does not read would otherwise have each change buffered for it in memory, without end.
    const waiting = watcher.ready?.();
    if (waiting !== undefined) await waiting;
    if (signal.aborted) return;
    let session: SessionRecord | undefined;
    let turns: readonly TurnRecord[];
    let signature = '';
    const first = sessionSignature === '';
    try {
      const stored = await store.getSession(sid);
      // With `orphaned` when no host runs it (orphaned-session.ts): a host that dies is a change the page must show.
      session = stored === undefined ? undefined : await servedSession(store, stored, resumeArgs);
      signature = session === undefined ? '' : [session.status, session.turns, session.updatedAt, 'orphaned' in session].join('|');
      if (session === undefined) turns = [];
      else if (first) turns = await listTurnRange(store, sid, { last: firstTurns });
      else if (signature !== sessionSignature) turns = await listTurnRange(store, sid, { from: changedFrom() });
      else {
        const last = await store.lastTurn(sid);
        turns = last === undefined ? [] : [last];
      }
    } catch {
      schedule();
      return;
    }
    if (signal.aborted) return;
    if (session === undefined) {
      watcher.onEnd();
      return;
    }
    const changed: TurnRecord[] = [];
    for (const turn of turns) {
      highest = Math.max(highest, turn.turnIndex);
      if (turn.phase === 'decided') open.delete(turn.turnIndex);
      else open.add(turn.turnIndex);
      const next = turnSignature(turn);
      if (turnSignatures.get(turn.turnIndex) !== next) {
        turnSignatures.set(turn.turnIndex, next);
        changed.push(turn);
      }
    }
    if (first) {
      sessionSignature = signature;
      watcher.onStart(session, turns);
    } else {
      if (signature !== sessionSignature) {
        sessionSignature = signature;
        watcher.onSession(session);
      }
      for (const turn of changed) watcher.onTurn(turn);
    }
    if (session.status === 'done') {
      watcher.onEnd();
      return;
    }
    // A halted session changes only when someone resumes it: looked at less often than one that runs.
    schedule(session.status === 'halted' ? Math.max(intervalMs, HALTED_POLL_MS) : intervalMs);
  };
  const schedule = (waitMs = intervalMs) => {
    if (!signal.aborted) timer = setTimeout(() => void poll(), waitMs);
  };
  signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  void poll();
}
