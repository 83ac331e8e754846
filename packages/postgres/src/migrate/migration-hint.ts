/**
 * What to do about a migration the server refused, by its SQLSTATE: the
 * server's words ("no schema has been selected to create in", "permission
 * denied for table askloop_schema_migrations") say what failed, not how a
 * host's role gets past it.
 */
import { sqlState } from '../sql/statement-runner.ts';

/** The rights a host's role needs on a database another role migrated. */
export const HOST_ROLE_RIGHTS = 'SELECT, INSERT, UPDATE, DELETE on the askloop_ tables, USAGE, SELECT, UPDATE on their sequences and EXECUTE on askloop_require_lease and askloop_require_session_lease';

/** The hint for `error` (`; …`), or '' when it is not one of these refusals. */
export function migrationHint(error: unknown): string {
  switch (sqlState(error)) {
    // invalid_schema_name: the role's search_path names no schema that exists (or none it may use).
    case '3F000':
      return "; the role's search_path names no schema it may create tables in: set it to one that exists and the role may use (in the URL, ?options=-c%20search_path%3Dpublic), or create that schema";
    // insufficient_privilege: a role that may not create or read AskLoop's tables.
    case '42501':
      return `; the role may not create or use AskLoop's tables: let the database's owner run any askloop command (or applyPostgresMigrations) once to create them, then grant this role ${HOST_ROLE_RIGHTS}`;
    default:
      return '';
  }
}
