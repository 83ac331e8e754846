/**
 * `askloop run --detach`: creates the session in the PostgreSQL store,
 * queues it for the workers (`askloop worker`) and returns at once with its
 * id; nothing runs here. Follow it with `askloop sessions`/`show` on the
 * same store, or `askloop view`.
 */
import type { AgentDefinition, AskLoopWithMetrics } from '@askloop/controller';
import { createSessionQueue } from '@askloop/postgres';
import type pg from 'pg';
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
