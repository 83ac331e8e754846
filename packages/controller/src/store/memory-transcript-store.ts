/**
 * The in-memory transcript store: for tests and one-shot runs. Records are
 * copied as JSON on the way in and out, so a caller can never change what is
 * stored (and anything that is not plain JSON fails here as it would in SQLite).
 */
import { LoopError } from '../errors/loop-error.ts';
import type { TurnRecord } from '../loop/turn-record.ts';
import { createFencedLeases } from './fenced-leases.ts';
import { requireListOptions, requireSessionFilter, sessionMatchesList } from './list-options.ts';
import { requireSessionId, requireTurnIndex } from './store-keys.ts';
import { requireTurnRange, turnsInRange } from './turn-range.ts';
import { sessionExistsError } from './session-exists-error.ts';
import type { ListSessionsOptions, SessionFilter, SessionRecord, TranscriptStore } from './transcript-store.ts';

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Creates an empty in-memory store. */
export function createMemoryTranscriptStore(): TranscriptStore {
  const sessions = new Map<string, SessionRecord>();
  const turns = new Map<string, Map<number, TurnRecord>>();
  const leaseRows = new Map<string, { holder: string; expiresAt: number; token: number }>();
  // Leases matter here only to controllers sharing this one store object; they lapse and fence like SQLite's.
  const leases = createFencedLeases({
    take(sid, holder, expiresAt, now) {
      const row = leaseRows.get(sid);
      if (row !== undefined && row.holder !== holder && row.expiresAt > now) return undefined;
      const token = (row?.token ?? 0) + 1;
      leaseRows.set(sid, { holder, expiresAt, token });
      return token;
    },
    renew(sid, holder, token, expiresAt) {
      const row = leaseRows.get(sid);
      if (row?.holder !== holder || row.token !== token) return false;
      row.expiresAt = expiresAt;
      return true;
    },
    expire(sid, holder, token) {
      const row = leaseRows.get(sid);
      if (row?.holder === holder && row.token === token) row.expiresAt = 0;
    },
    isCurrent(sid, holder, token) {
      const row = leaseRows.get(sid);
      return row?.holder === holder && row.token === token;
    },
  });
  return {
    async createSession(session) {
      requireSessionId(session.sid, 'createSession');
      leases.fenceFor(session.sid)?.();
      if (sessions.has(session.sid)) throw sessionExistsError(session.sid);
      sessions.set(session.sid, copy(session));
      turns.set(session.sid, new Map());
    },
    async getSession(sid) {
      requireSessionId(sid, 'getSession');
      const found = sessions.get(sid);
      return found === undefined ? undefined : copy(found);
    },
    async updateSession(session) {
      requireSessionId(session.sid, 'updateSession');
      leases.fenceFor(session.sid)?.();
      if (!sessions.has(session.sid)) throw new LoopError({ code: 'LOOP_SESSION_NOT_FOUND', message: `no session ${session.sid}`, sid: session.sid });
      sessions.set(session.sid, copy(session));
    },
    async listSessions(options: ListSessionsOptions = {}) {
      requireListOptions(options);
      // Reversed first: the stable sort then puts the later of two sessions created in the same millisecond first.
      const all = [...sessions.values()]
        .reverse()
        .filter((session) => sessionMatchesList(session, options))
        .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
      const start = options.offset ?? 0;
      return copy(all.slice(start, options.limit === undefined ? undefined : start + options.limit));
    },
    async countSessions(filter: SessionFilter = {}) {
      requireSessionFilter(filter);
      let count = 0;
      for (const session of sessions.values()) if (sessionMatchesList(session, filter)) count += 1;
      return count;
    },
    async saveTurn(record, session) {
      requireSessionId(record.sid, 'saveTurn');
      requireTurnIndex(record.turnIndex, 'saveTurn');
      if (session !== undefined) requireSessionId(session.sid, 'saveTurn');
      leases.fenceFor(record.sid)?.();
      const table = turns.get(record.sid);
      if (table === undefined) throw new LoopError({ code: 'LOOP_SESSION_NOT_FOUND', message: `no session ${record.sid}`, sid: record.sid });
      if (session !== undefined && !sessions.has(session.sid)) throw new LoopError({ code: 'LOOP_SESSION_NOT_FOUND', message: `no session ${session.sid}`, sid: session.sid });
      // Both or neither: the copies are made (and can fail) before either map changes.
      const savedTurn = copy(record);
      const savedSession = session === undefined ? undefined : copy(session);
      table.set(record.turnIndex, savedTurn);
      if (savedSession !== undefined) sessions.set(savedSession.sid, savedSession);
    },
    async listTurns(sid) {
      requireSessionId(sid, 'listTurns');
      return copy([...(turns.get(sid)?.values() ?? [])].sort((a, b) => a.turnIndex - b.turnIndex));
    },
    async listTurnRange(sid, range) {
      requireSessionId(sid, 'listTurnRange');
      requireTurnRange(range);
      return copy(turnsInRange([...(turns.get(sid)?.values() ?? [])].sort((a, b) => a.turnIndex - b.turnIndex), range));
    },
    async lastTurn(sid) {
      requireSessionId(sid, 'lastTurn');
      let last: TurnRecord | undefined;
      for (const turn of turns.get(sid)?.values() ?? []) if (last === undefined || turn.turnIndex > last.turnIndex) last = turn;
      return last === undefined ? undefined : copy(last);
    },
    async acquireLease(sid, holder, ttlMs) {
      requireSessionId(sid, 'acquireLease');
      const held = leases.acquire(sid, holder, ttlMs, Date.now());
      // Nothing here can fail after the take: it stands at once.
      leases.settle(sid, holder, true);
      return held;
    },
    async releaseLease(sid, holder) {
      requireSessionId(sid, 'releaseLease');
      leases.release(sid, holder);
    },
    async leaseExpiresAt(sid) {
      requireSessionId(sid, 'leaseExpiresAt');
      return leaseRows.get(sid)?.expiresAt;
    },
    async close() {},
  };
}
