/**
 * `askloop view [SID] [--db FILE] [--config FILE] [--port N] [--no-open]`:
 * serves the session viewer on 127.0.0.1 — the stored sessions as a timeline
 * of turns, live while one runs — and prints its URL. Reads the same SQLite
 * file that `askloop run` writes, through a read-only connection.
 */
import { existsSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CliError, usageError } from '../cli-error.ts';
import type { Command } from '../io.ts';
import { atStorePlace } from '../config/store-place.ts';
import { sessionsDbPath } from '../config/sessions-db-path.ts';
import { followKnownSecretNames } from '../known-secret-names.ts';
import { openSessionsReadOnly } from './open-sessions-read-only.ts';
import { integerOption } from '../options/parse-options.ts';
import { openBrowser } from '../view/open-browser.ts';
import { resolveSessionId } from '../view/resolve-session-id.ts';

import { continueArgs } from '../loop/continue-hint.ts';
import { storeReadError } from '../loop/damaged-store.ts';
/** Resolves when the process is asked to stop (Ctrl-C, or SIGTERM from a supervisor). */
const stopSignal = (): Promise<void> =>
  new Promise((done) => {
    process.once('SIGINT', () => done());
    process.once('SIGTERM', () => done());
  });

/** `askloop view`. */
export const viewCommand: Command = {
  usage: `Usage: askloop view [SID] [--db FILE] [--config FILE] [--port N] [--no-open]

Serves a local web page showing the stored sessions as a timeline: each
turn's envelope, reply, program (with line numbers), diagnostics, tool calls
with arguments and results, emits, whispers, decision, digest and usage, and
token and latency charts. A running session updates live. With SID (or the
start of one id, at least 4 characters), the URL opens that session.

Listens on 127.0.0.1 only and answers only requests addressed to 127.0.0.1 or
localhost; read-only. Prints the URL, then serves until Ctrl-C.

Options:
  --db FILE       the sessions file (default: the one askloop run uses —
                  store.path of the config file, else
                  $XDG_DATA_HOME/askloop/sessions.db or ~/.local/share/askloop/sessions.db);
                  a SQLite file only: a PostgreSQL store is read with
                  askloop sessions and askloop show
  --config FILE   the config file whose store.path to use (default
                  ./askloop.config.yaml when present)
  --port N        the port on 127.0.0.1 (default 0: a free one)
  --no-open       do not open the page in a browser
`,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: { db: { type: 'string' }, config: { type: 'string' }, port: { type: 'string' }, 'no-open': { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length > 1) throw usageError(`unexpected argument '${positionals[1]}'`);
    const given = positionals[0];
    const port = integerOption('port', values.port, { min: 0, max: 65_535, why: 'a TCP port; 0 picks a free one' }) ?? 0;
    const { path: db, place } = await sessionsDbPath({ db: values.db, config: values.config }, io);
    // What chose the file, for the fix: the config's store.path (which --db overrides), or --db / the default.
    const name = place?.field ?? '--db';
    const elsewhere = place === undefined ? 'pass --db FILE' : 'give store.path another sessions file (--db FILE overrides it)';
    const runOne = place === undefined ? `askloop run --db ${db}` : 'askloop run (which writes to store.path)';
    // A file the config's store.path names that cannot be served is reported at that line of the config.
    const store = await atStorePlace(place, () => {
      // Opening a missing file would create an empty database: say where the sessions were expected instead.
      if (!existsSync(db)) throw new CliError('CLI_FILE_UNREADABLE', `no sessions database at ${db}: run a session with askloop run first, or ${elsewhere}`);
      if (!statSync(db).isFile()) throw new CliError('CLI_FILE_UNREADABLE', `${db} is not a file`);
      // Read-only: the viewer cannot change a session, and it never migrates a file that a newer or older askloop run owns.
      const opened = openSessionsReadOnly(db, name);
      if (opened === undefined) throw new CliError('CLI_FILE_UNREADABLE', `${db} is empty: no session has run on it yet; run one with ${runOne}, or ${place === undefined ? 'pass another --db FILE' : elsewhere}`);
      return opened;
    });
    const { startViewer } = await import('../view/start-viewer.ts');
    try {
      // A store's failure while looking (a file damaged since it was opened) is its code and the fix, not an unexpected error.
      const sid = given === undefined ? undefined : await resolveSessionId(store, given, db).catch((error: unknown) => Promise.reject(storeReadError(error, db, name)));
      // Without a session to find, the list's first page is read once before serving: a file damaged where the open
      // did not look is said here, not as a page of errors in the browser.
      if (sid === undefined) await store.listSessions({ limit: 1 }).catch((error: unknown) => Promise.reject(storeReadError(error, db, name)));
      const viewer = await startViewer({ store, port, env: io.env, secretNames: followKnownSecretNames(io), resumeArgs: continueArgs({ db }, io.cwd).text, storeName: name }).catch((error: unknown) => {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EADDRINUSE' || code === 'EACCES') throw new CliError('CLI_OPTION_INVALID', `--port ${port}: ${code === 'EADDRINUSE' ? 'already in use on 127.0.0.1' : 'not allowed for this user'}; pick another or 0 for a free one`);
        throw error;
      });
      const url = sid === undefined ? viewer.url : `${viewer.url}#/sessions/${encodeURIComponent(sid)}`;
      io.stdout(`askloop view: ${url}\n(sessions from ${db}; Ctrl-C stops)\n`);
      if (values['no-open'] !== true) openBrowser(url);
      await stopSignal();
      await viewer.close();
    } finally {
      await store.close();
    }
    return 0;
  },
};
