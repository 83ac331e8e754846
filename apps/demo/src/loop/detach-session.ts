/**
 * `askloop run --detach`: creates the session in the PostgreSQL store,
 * queues it for the workers (`askloop worker`) and returns at once with its
 * id; nothing runs here. `askloop resume SID --detach` queues a stored one
 * again. Follow it with `askloop sessions`/`show` on the
 * same store, or `askloop view`.
 */
import type { AgentDefinition, AskLoopWithMetrics, TranscriptStore } from '@askloop/controller';
import { createSessionQueue, findPostgresError } from '@askloop/postgres';
import type pg from 'pg';
import { CliError, usageError } from '../cli-error.ts';
import type { CommandIo, ExitCode } from '../io.ts';
import { REDACTED_DB_NOTE, type ContinueArgs } from './continue-hint.ts';
import { refusedRights } from './host-rights.ts';
import { asCliLoopError } from './open-session-loop.ts';
import { secretInAgentError } from './secret-in-agent-hint.ts';

/**
 * A failure to store or queue a session as the CLI's error: a role without
 * the rights a host needs is told them (as `run` without `--detach` is), a
 * failure of the queue is its `PG_…` code, not an unexpected error; and a
 * session created but not queued is named, with how to queue it once the
 * cause is fixed (`unqueued`: its id and the `--db` words to repeat).
 */
async function detachFailure(error: unknown, unqueued?: { readonly sid: string; readonly db: string }): Promise<never> {
  const left = unqueued === undefined ? '' : `; session ${unqueued.sid} was created but not queued: once the cause is fixed, queue it with askloop resume ${unqueued.sid} --detach${unqueued.db}`;
  const denied = await refusedRights(error, 'the sessions database refused this host');
  if (denied !== undefined) throw CliError.fromLoopError({ code: denied.code, message: `${denied.message}${left}` });
  const stored = findPostgresError(error);
  if (stored !== undefined) throw CliError.fromLoopError({ code: stored.code, message: `${stored.message}${left}` });
  return asCliLoopError(error);
}

/**
 * Creates and queues the session; prints its id (or `{"ok":true,"sid","status":"QUEUED"}`); exit 0. `db` is the
 * `--db` words (password hidden) a failure's hint repeats; `worker` the options of the `askloop worker` to start.
 */
export async function detachSession(io: CommandIo, loop: AskLoopWithMetrics, pool: pg.Pool, run: { readonly agent: AgentDefinition; readonly task: string }, options: { readonly json: boolean; readonly db?: string; readonly worker?: ContinueArgs }): Promise<ExitCode> {
  let sid: string | undefined;
  try {
    sid = await loop.create({ agent: run.agent, task: run.task });
    await createSessionQueue(pool).enqueue(sid);
  } catch (error) {
    // A session refused for an environment variable's value in what its agent is: the variable, and what to do.
    const named = secretInAgentError(error, run.agent, io);
    if (named !== undefined) throw named;
    return detachFailure(error, sid === undefined ? undefined : { sid, db: options.db ?? '' });
  } finally {
    await loop.close();
  }
  io.stdout(options.json ? `${JSON.stringify({ ok: true, sid, status: 'QUEUED' })}\n` : `${sid}\n`);
  // The worker to start, with what this run was given that a worker needs too (a scripted model's replies, the config's plugins, the fs root).
  const worker = options.worker === undefined ? '' : `: askloop worker${options.worker.text}${options.worker.dbRedacted ? ` ${REDACTED_DB_NOTE}` : ''}`;
  if (!options.json) io.stderr(`askloop: session ${sid} queued; an \`askloop worker\` on the same store runs it${worker}\n`);
  return 0;
}

/** Why `--detach` was refused on a sessions file. */
export const DETACH_NEEDS_POSTGRES = '--detach queues the session for `askloop worker`, which needs a PostgreSQL store: --db postgres://USER@HOST:PORT/DB';

/**
 * `resume SID --detach`: queues the session again for the workers of its
 * PostgreSQL store (one a worker parked `failed` after three failed steps, once
 * the cause is fixed: a missing plugin, a provider that was down), and returns
 * with its id; nothing runs here. The caller checked it has not ended, and
 * closes the store if this throws.
 */
export async function requeueSession(io: CommandIo, store: TranscriptStore, pool: pg.Pool | undefined, sid: string, paused: boolean, json: boolean): Promise<ExitCode> {
  if (pool === undefined) throw usageError(DETACH_NEEDS_POSTGRES);
  if (paused) throw usageError(`session ${sid} waits for a person: answer it with askloop approve ${sid} or askloop deny ${sid} (with the same --db); a worker cannot`);
  try {
    await createSessionQueue(pool).enqueue(sid);
  } catch (error) {
    await detachFailure(error);
  }
  // On success only: a failure above goes back to the caller, which closes the store.
  await store.close();
  io.stdout(json ? `${JSON.stringify({ ok: true, sid, status: 'QUEUED' })}\n` : `${sid}\n`);
  if (!json) io.stderr(`askloop: session ${sid} queued again; an \`askloop worker\` on the same store goes on with it\n`);
  return 0;
}
