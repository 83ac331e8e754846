/**
 * The SQLite transcript store's lease table (`controller_leases`: holder,
 * expiry and fencing token per session; schema version 5), for the fenced
 * leases of `fenced-leases.ts`. Each method is one statement, run inside
 * the store's write transaction.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { LeaseTable } from './fenced-leases.ts';

/**
 * When `sid`'s lease lapses (0 once given up), or undefined when no host ever
 * took one, for readers (`TranscriptStore.leaseExpiresAt`). Prepared on first
 * use; a file older than the table (schema 5), which a read-only store may
 * open, has no lease to read.
 */
export function sqliteLeaseExpiry(db: DatabaseSync): (sid: string) => number | undefined {
  let statement: StatementSync | null | undefined;
  return (sid) => {
    if (statement === undefined) {
      const exists = db.prepare("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'controller_leases'").get() !== undefined;
      statement = exists ? db.prepare('SELECT expires_at FROM controller_leases WHERE sid = ?') : null;
    }
    const row = statement?.get(sid) as { expires_at?: unknown } | undefined;
    return row === undefined ? undefined : Number(row.expires_at);
  };
}

/** The lease table on `db`; statements are prepared on first use (a read-only store may see a file without it). */
export function sqliteLeaseTable(db: DatabaseSync): LeaseTable {
  let statements: { readonly take: StatementSync; readonly renew: StatementSync; readonly expire: StatementSync; readonly current: StatementSync } | undefined;
  const sql = () =>
    (statements ??= {
      // One statement, so atomic: insert, or take over a lease that is this holder's or has lapsed, raising the token.
      take: db.prepare(
        `INSERT INTO controller_leases (sid, holder, expires_at, token) VALUES (?1, ?2, ?3, 1)
         ON CONFLICT (sid) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at, token = controller_leases.token + 1
         WHERE controller_leases.holder = excluded.holder OR controller_leases.expires_at <= ?4
         RETURNING token`,
      ),
      renew: db.prepare('UPDATE controller_leases SET expires_at = ? WHERE sid = ? AND holder = ? AND token = ?'),
      expire: db.prepare('UPDATE controller_leases SET expires_at = 0 WHERE sid = ? AND holder = ? AND token = ?'),
      current: db.prepare('SELECT 1 AS found FROM controller_leases WHERE sid = ? AND holder = ? AND token = ?'),
    });
  return {
    take(sid, holder, expiresAt, now) {
      const row = sql().take.get(sid, holder, expiresAt, now) as { token?: unknown } | undefined;
      return row === undefined ? undefined : Number(row.token);
    },
    renew: (sid, holder, token, expiresAt) => Number(sql().renew.run(expiresAt, sid, holder, token).changes) > 0,
    expire(sid, holder, token) {
      sql().expire.run(sid, holder, token);
    },
    isCurrent: (sid, holder, token) => sql().current.get(sid, holder, token) !== undefined,
  };
}
