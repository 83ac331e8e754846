/**
 * A store value (`--db`, config `store:`) that looks like a URL must be a
 * PostgreSQL one: anything else is refused before it is taken for a file
 * name.
 */
import { CliError } from '../cli-error.ts';
import { redactUrl } from './redact-url.ts';

/** True for a `postgres://` or `postgresql://` URL. */
export function isPostgresUrl(text: string): boolean {
  return /^postgres(ql)?:\/\//i.test(text);
}

/**
 * `scheme://…`: a URL rather than a file name. Two letters at least, so a
 * Windows drive (`C://x`) stays a path.
 */
export function looksLikeUrl(text: string): boolean {
  return /^[a-z][a-z0-9+.-]+:\/\//i.test(text);
}

/** The words naming what a store may be, for the messages that refuse one. */
export const STORE_FORMS = 'a SQLite file path (sessions.db, ./dir/sessions.db) or a PostgreSQL URL (postgres://USER@HOST:PORT/DB or postgresql://…)';

/**
 * Refuses a store value that looks like a URL but is no PostgreSQL one
 * (`postgress://…`, `mysql://…`): taken as a file name it would silently
 * become a SQLite file in a folder named after the scheme. `CLI_OPTION_INVALID`
 * (exit 2), the URL shown without its password.
 */
export function refuseOtherUrl(value: string, option = '--db'): void {
  if (!looksLikeUrl(value) || isPostgresUrl(value)) return;
  throw new CliError('CLI_OPTION_INVALID', `${option} ${redactUrl(value)}: not a store askloop can use; give ${STORE_FORMS}`);
}
