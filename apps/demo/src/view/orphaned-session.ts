/**
 * Whether a `running` session is run by no host: its host crashed or was
 * killed mid-session, and it showed "running" (with a Live badge) for good.
 * The lease a running loop holds lapses within its time once the host is
 * gone, its expiry left in the past; a lease given up (between two steps of
 * a loop, or by code that steps the session now and then: `loop.step`) has
 * its expiry set to 0, and says nothing of a crash. A lapsed lease counts
 * only when the session has also been quiet for a while.
 */
import type { SessionRecord, TranscriptStore } from '@askloop/controller';

/** How long a running session must have gone without an update before its lapsed lease means no host runs it. */
export const ORPHAN_QUIET_MS = 5_000;

/**
 * True when `session` is running, its lease lapsed (not given up) before `now`
 * and it was last updated more than {@link ORPHAN_QUIET_MS} before `now`. False
 * for a store that cannot say (no `leaseExpiresAt`), for a session no host ever
 * leased (one waiting in a queue for a worker) and for one whose lease was
 * given up (a session its own code steps when it needs to).
 */
export async function isOrphaned(store: Pick<TranscriptStore, 'leaseExpiresAt'>, session: Pick<SessionRecord, 'sid' | 'status' | 'updatedAt'>, now = Date.now()): Promise<boolean> {
  if (session.status !== 'running' || store.leaseExpiresAt === undefined) return false;
  const expiresAt = await store.leaseExpiresAt(session.sid);
  return expiresAt !== undefined && expiresAt > 0 && expiresAt <= now && now - Date.parse(session.updatedAt) > ORPHAN_QUIET_MS;
}

/**
 * The session as the viewer serves it: `orphaned: true` added when no host
 * runs it, with `resume`, the command that continues it (`resumeArgs` find
 * its store: ` --db FILE`; without them a pasted `askloop resume SID` looked
 * in the default store).
 */
export async function servedSession(store: Pick<TranscriptStore, 'leaseExpiresAt'>, session: SessionRecord, resumeArgs = ''): Promise<SessionRecord & { readonly orphaned?: true; readonly resume?: string }> {
  return (await isOrphaned(store, session).catch(() => false)) ? { ...session, orphaned: true, resume: `askloop resume ${session.sid}${resumeArgs}` } : session;
}
