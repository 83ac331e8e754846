/**
 * Reads back what the workers left in the database and lists every broken
 * promise: a session not DONE, not exactly its turns, a turn committed twice
 * (the step log has one row per committed step), a tool effect applied twice
 * (the memory counter and the per-turn keys), a write recorded other than
 * once (the idempotence records, none left pending; those of turns before
 * the last may have been removed), or two steps of one session
 * overlapping in time (from the database's own clock: each step's lease
 * start and its commit). An empty list means all held.
 */
import type pg from 'pg';

/** What the audit found: problems (empty when everything held) and a few totals. */
export interface SessionAudit {
  readonly problems: readonly string[];
  readonly sessions: number;
  readonly steps: number;
  /** Leases taken in all (more than `steps` when hosts died or lost leases). */
  readonly leases: number;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group === undefined) groups.set(key(item), [item]);
    else group.push(item);
  }
  return groups;
}

type StepRow = { sid: string; turns: number; status: string; leased_at: Date; committed_at: Date };

/** Audits every session of the database, each of which should be DONE after `turns` turns (its label is its USERDATA subject). */
export async function auditSessions(pool: pg.Pool, turns: number): Promise<SessionAudit> {
  const problems: string[] = [];
  const sessions = (await pool.query<{ sid: string; status: string; turns: number; record: string }>('SELECT sid, status, turns, record FROM askloop_sessions')).rows;
  const steps = (await pool.query<StepRow>('SELECT sid, turns, status, leased_at, committed_at FROM askloop_steps ORDER BY sid, leased_at')).rows;
  const turnRows = (await pool.query<{ sid: string; turn_index: number; phase: string }>('SELECT sid, turn_index, phase FROM askloop_turns')).rows;
  const decisions = (await pool.query<{ sid: string; n: number }>('SELECT sid, count(*)::int AS n FROM askloop_decisions GROUP BY sid')).rows;
  const memory = new Map((await pool.query<{ key: string; value: string; version: string }>('SELECT key, value, version FROM askloop_memory')).rows.map((row) => [row.key, row]));
  const records = (await pool.query<{ session: string; turn: number; done: number; pending: number }>(
    'SELECT session, turn, count(*) FILTER (WHERE NOT pending)::int AS done, count(*) FILTER (WHERE pending)::int AS pending FROM askloop_idempotence GROUP BY session, turn',
  )).rows;
  const recordsBySid = groupBy(records, (row) => row.session);
  const leases = (await pool.query<{ n: string }>('SELECT coalesce(sum(leases), 0) AS n FROM askloop_queue')).rows[0]?.n ?? '0';
  const stepsBySid = groupBy(steps, (step) => step.sid);
  const turnsBySid = groupBy(turnRows, (row) => row.sid);
  const decisionsBySid = new Map(decisions.map((row) => [row.sid, row.n]));
  for (const session of sessions) {
    const { sid } = session;
    const label = (JSON.parse(session.record) as { userdata: { subject: string } }).userdata.subject;
    if (session.status !== 'done' || session.turns !== turns) problems.push(`${sid}: ${session.status} after ${session.turns} turns`);
    const stored = turnsBySid.get(sid) ?? [];
    if (stored.length !== turns || stored.some((row) => row.phase !== 'decided')) problems.push(`${sid}: turns stored ${JSON.stringify(stored.map((row) => [row.turn_index, row.phase]))}`);
    if (decisionsBySid.get(sid) !== turns) problems.push(`${sid}: ${decisionsBySid.get(sid) ?? 0} decision-log entries`);
    const own = stepsBySid.get(sid) ?? [];
    const committedTurns = own.map((step) => step.turns);
    const expected = Array.from({ length: turns }, (_, index) => index + 1);
    if (JSON.stringify(committedTurns) !== JSON.stringify(expected)) problems.push(`${sid}: committed steps ran turns ${JSON.stringify(committedTurns)}`);
    for (let index = 1; index < own.length; index += 1) {
      const before = own[index - 1]!;
      const after = own[index]!;
      if (after.leased_at < before.committed_at) problems.push(`${sid}: step of turn ${after.turns} started ${after.leased_at.toISOString()} before turn ${before.turns} committed ${before.committed_at.toISOString()}`);
    }
    // Each turn's two writes (the counter's and the turn's CAS) are recorded once, and so is the read of the counter
    // before them (journaled with the first write, for a re-run of the turn), none left pending. A host with a short
    // idempotence retention removes the records of earlier turns at a turn's first write: the last turn's are always
    // there, and the turns before it may be gone from the first (the effects below show each of their writes acted once).
    const ownRecords = (recordsBySid.get(sid) ?? []).sort((a, b) => a.turn - b.turn).map((row) => [row.turn, row.done, row.pending]);
    const everyTurn = expected.map((turn) => [turn, 3, 0]);
    if (ownRecords.length === 0 || JSON.stringify(ownRecords) !== JSON.stringify(everyTurn.slice(everyTurn.length - ownRecords.length))) {
      problems.push(`${sid}: idempotence records [turn, done, pending] ${JSON.stringify(ownRecords)}`);
    }
    const counter = memory.get(`/count/${label}`);
    if (counter === undefined || counter.value !== String(turns) || Number(counter.version) !== turns) problems.push(`${sid}: counter ${JSON.stringify(counter)}`);
    for (const turn of expected) {
      const marker = memory.get(`/turn/${label}/${turn}`);
      if (marker === undefined || Number(marker.version) !== 1) problems.push(`${sid}: turn ${turn} effect ${JSON.stringify(marker)}`);
    }
  }
  return { problems, sessions: sessions.length, steps: steps.length, leases: Number(leases) };
}
