/**
 * A PostgreSQL role that may read the store but lacks what a host writes
 * with. The server refuses each write with SQLSTATE 42501, which the
 * controller reports as its store failing (`LOOP_STORE_ERROR`) and a worker
 * would retry forever; waiting gives no rights, so the CLI ends the command
 * with `PG_QUERY_FAILED` and the rights to grant.
 */
import { CliError } from '../cli-error.ts';

/** The error for a store that refused this host's role, or undefined when `error` is no such refusal. */
export async function refusedRights(error: unknown, what: string): Promise<CliError | undefined> {
  // Loaded only on this path: a session file needs no PostgreSQL client.
  const { HOST_ROLE_RIGHTS, isPermissionDenied } = await import('@askloop/postgres');
  if (!isPermissionDenied(error)) return undefined;
  const message = error instanceof Error ? error.message : String(error);
  return CliError.fromLoopError({ code: 'PG_QUERY_FAILED', message: `${what}: ${message}; the role lacks rights a host needs, which waiting does not give: ${HOST_ROLE_RIGHTS}` });
}
