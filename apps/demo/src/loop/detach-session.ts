/**
 * `askloop run --detach`: creates the session in the PostgreSQL store,
 * queues it for the workers (`askloop worker`) and returns at once with its
 * id; nothing runs here. `askloop resume SID --detach` queues a stored one
 * again. Follow it with `askloop sessions`/`show` on the
 * same store, or `askloop view`.
 */
import type { AgentDefinition, AskLoopWithMetrics, TranscriptStore } from '@askloop/controller';
import { createSessionQueue } from '@askloop/postgres';
import type pg from 'pg';
import { usageError } from '../cli-error.ts';
import type { CommandIo, ExitCode } from '../io.ts';
import { asCliLoopError } from './open-session-loop.ts';

/** Creates and queues the session; prints its id (or `{"ok":true,"sid","status":"QUEUED"}`); exit 0. */
export async function detachSession(io: CommandIo, loop: AskLoopWithMetrics, pool: pg.Pool, run: { readonly agent: AgentDefinition; readonly task: string }, options: { readonly json: boolean }): Promise<ExitCode> {
  let sid: string;
  try {
    sid = await loop.create({ agent: run.agent, task: run.task });
    await createSessionQueue(pool).enqueue(sid);
  } catch (error) {
    return asCliLoopError(error);
  } finally {
    await loop.close();
  }
  io.stdout(options.json ? `${JSON.stringify({ ok: true, sid, status: 'QUEUED' })}\n` : `${sid}\n`);
  if (!options.json) io.stderr(`askloop: session ${sid} queued; an \`askloop worker\` on the same store runs it\n`);
  return 0;
}

/**
 * `resume SID --detach`: queues the session again for the workers of its
 * PostgreSQL store (one a worker parked `failed` after three failed steps, once
 * the cause is fixed: a missing plugin, a provider that was down), and returns
 * with its id; nothing runs here. The caller checked it has not ended, and
 * closes the store if this throws.
 */
export async function requeueSession(io: CommandIo, store: TranscriptStore, pool: pg.Pool | undefined, sid: string, paused: boolean, json: boolean): Promise<ExitCode> {
  if (pool === undefined) throw usageError('--detach queues the session for `askloop worker`, which needs a PostgreSQL store: --db postgres://USER@HOST:PORT/DB');
  if (paused) throw usageError(`session ${sid} waits for a person: answer it with askloop approve ${sid} or askloop deny ${sid} (with the same --db); a worker cannot`);
  await createSessionQueue(pool).enqueue(sid);
  // On success only: a failure above goes back to the caller, which closes the store.
  await store.close();
  io.stdout(json ? `${JSON.stringify({ ok: true, sid, status: 'QUEUED' })}\n` : `${sid}\n`);
  if (!json) io.stderr(`askloop: session ${sid} queued again; an \`askloop worker\` on the same store goes on with it\n`);
  return 0;
}
