/**
 * Options and help text every loop command shares (`run`, `demo`, `resume`,
 * `approve`, `deny`, `replay`): the sessions file, the config file, the fs root a session
 * needs again when it continues, `--json`, and the exit codes.
 */
import { EXIT_HALT, EXIT_PAUSED } from './print-loop-result.ts';

/** `parseArgs` definitions of the options `replay` shares with the others (it prints no progress: no `--quiet`). */
export const REPLAY_SESSION_OPTIONS = {
  db: { type: 'string' },
  config: { type: 'string' },
  'fs-root': { type: 'string' },
  json: { type: 'boolean' },
} as const;

/** `parseArgs` definitions of the shared options of the commands that run turns. */
export const SESSION_OPTIONS = { ...REPLAY_SESSION_OPTIONS, quiet: { type: 'boolean' } } as const;

/** `--db` of a command that starts a session. */
const NEW_SESSION_DB_USAGE = `  --db FILE         the sessions file (SQLite; created when missing; default
                    $XDG_DATA_HOME/askloop/sessions.db, else
                    ~/.local/share/askloop/sessions.db). It also holds the
                    tools' memory and scratch records. Or a PostgreSQL
                    server: --db postgres://USER@HOST:PORT/DB (another
                    scheme:// is refused).`;

/** `--db` of a command that continues or replays a stored session. */
const STORED_SESSION_DB_USAGE = `  --db FILE         the sessions file the session is in (SQLite; it must
                    exist; default $XDG_DATA_HOME/askloop/sessions.db, else
                    ~/.local/share/askloop/sessions.db), or the PostgreSQL
                    server it ran on: --db postgres://USER@HOST:PORT/DB.`;

/** `--config` of a command that starts a session: its agents are what `--agent NAME` names. */
const NEW_SESSION_CONFIG_USAGE = `  --config FILE     the config file (default ./askloop.config.yaml when
                    present): its agents (--agent NAME), plugins, MCP
                    servers and store (used when --db is not given).`;

/** `--config` of a command that continues or replays a stored session, which reads its agent from the store (no `--agent`). */
const STORED_SESSION_CONFIG_USAGE = `  --config FILE     the config file of the run (default ./askloop.config.yaml
                    when present): its plugins, providers' settings, MCP
                    servers and store (used when --db is not given); the
                    session's agent is read from the sessions file.`;

/** Usage lines of the options every loop command takes after `--db` and `--config`. */
const TOOLS_USAGE = `  --fs-root DIR     add the tool.fs.* tools, confined to DIR (they still need
                    --allow 'tool.fs.*' and an fs grant). tool.http.Fetch
                    is always there, and needs --allow tool.http.Fetch and
                    a net grant (net:read:api.example.com).`;
const QUIET_USAGE = `  --quiet           no progress on standard error: the result on standard
                    output, and on standard error only the closing line
                    (the status and the session; after a pause or a
                    Ctrl-C, how to go on).`;
const JSON_USAGE = `  --json            print one JSON object (below) instead of text.`;

/** Usage lines of the shared options, for `run`. */
export const SESSION_OPTIONS_USAGE = [NEW_SESSION_DB_USAGE, NEW_SESSION_CONFIG_USAGE, TOOLS_USAGE, QUIET_USAGE, JSON_USAGE].join('\n');

/** Usage lines of the shared options, for `resume`, `approve` and `deny`. */
export const STORED_SESSION_OPTIONS_USAGE = [STORED_SESSION_DB_USAGE, STORED_SESSION_CONFIG_USAGE, TOOLS_USAGE, QUIET_USAGE, JSON_USAGE].join('\n');

/** Usage lines of the shared options, for `replay` (no `--quiet`: it prints no progress). */
export const REPLAY_OPTIONS_USAGE = [STORED_SESSION_DB_USAGE, STORED_SESSION_CONFIG_USAGE, TOOLS_USAGE, JSON_USAGE].join('\n');

/** The exit codes of the loop commands, for their --help. */
export const LOOP_EXIT_USAGE = `Exit codes: 0 DONE; ${EXIT_HALT} HALT (the reason is printed; ERR_CANCELLED after
Ctrl-C and ERR_PROVIDER, a model call that failed, can be resumed); ${EXIT_PAUSED} PAUSED (approve or deny it); 1 the loop could
not start or continue (an invalid agent or script file, an unknown session or
provider, a broken sessions file, resume of a session that already ended);
2 a usage error, a bad option value, or
(resume, approve, deny) no sessions file; 130 (Ctrl-C) or 143 (SIGTERM) when
interrupted before the loop began, with nothing run or stored.`;
