/**
 * `askloop sessions [--db FILE] [--config FILE] [--status S] [--search TEXT] [--limit N] [--json]`:
 * the stored sessions, newest first, as a table (id, task, agent, status,
 * turns, age), or as a JSON array of objects.
 */
import { followKnownSecretNames } from '../known-secret-names.ts';
import { createSecretRedactor } from '../redact-secrets.ts';
import { characterProblem, countSessions, MAX_LIST_SEARCH_LENGTH, sessionTask, type SessionRecord, type SessionStatus } from '@askloop/controller';
import type { QueueEntry } from '@askloop/postgres';
import Table from 'cli-table3';
import { parseArgs } from 'node:util';
import { CliError, usageError } from '../cli-error.ts';
import { sessionsStoreLocation } from '../config/sessions-db-path.ts';
import type { Command, CommandIo } from '../io.ts';
import { continueArgs, REDACTED_DB_NOTE } from '../loop/continue-hint.ts';
import { choiceOption, integerOption } from '../options/parse-options.ts';
import { formatAge, oneLine } from '../progress/format-values.ts';
import { shouldUseColor, terminalColors } from '../progress/terminal-colors.ts';
import { terminalSafe } from '../progress/terminal-safe.ts';
import { openSessionsReader } from './open-sessions-reader.ts';
import { isOrphaned, ORPHAN_QUIET_MS } from '../view/orphaned-session.ts';

const STATUSES: readonly SessionStatus[] = ['running', 'paused', 'done', 'halted'];

/** One session as `--json` lists it. */
export interface SessionSummary {
  sid: string;
  task: string;
  agent: string;
  status: SessionStatus;
  turns: number;
  createdAt: string;
  updatedAt: string;
  /** DONE, HALT or PAUSE with its reason, once the session stopped or paused. */
  lastDecision: string | null;
  parentSid: string | null;
  /** Present (true) for a PostgreSQL store's session a worker's failed steps parked: it reads running, but no worker takes it. */
  parked?: true;
  /** Present (true) for a PostgreSQL store's session waiting in the queue for a worker to take its next turn: it reads running. */
  queued?: true;
  /** Present (true) for a running session no host runs: its host stopped mid-session (its lease lapsed); `askloop resume` continues it. */
  orphaned?: true;
}

/** The task of a session as shown: USERDATA's `subject` (what `askloop run "<task>"` was given), else its JSON. */
export function taskOrUserdata(session: SessionRecord): string {
  return sessionTask(session) ?? JSON.stringify(session.userdata);
}

function summary(session: SessionRecord): SessionSummary {
  const last = session.lastDecision;
  return {
    sid: session.sid,
    task: taskOrUserdata(session),
    agent: session.agent,
    status: session.status,
    turns: session.turns,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
    lastDecision: last === undefined ? null : last.kind === 'HALT' || last.kind === 'PAUSE' ? `${last.kind} ${last.reason}` : last.kind,
    parentSid: session.parentSid ?? null,
  };
}

/** What the footer says besides the counts: the filters the list was given, and the `--db` a `show` needs again. */
export interface FooterContext {
  /** ` with status S matching "TEXT"`, or '' without filters. */
  readonly filtered: string;
  /** The `--db` words `askloop show` needs to find the same store ('' for the default one). */
  readonly dbArgs: string;
}

/** The line under the table: how many sessions it shows, and of how many when `--limit` cut the list (`total`). */
export function sessionsFooter(shown: number, total: number, dbPath: string, context: FooterContext = { filtered: '', dbArgs: '' }): string {
  const noun = (count: number) => (count === 1 ? 'session' : 'sessions');
  const show = `askloop show SID${context.dbArgs}`;
  return shown < total
    ? `showing ${shown} of ${total} ${noun(total)} in ${dbPath}${context.filtered} (newest first; --limit N) · ${show}`
    : `${shown} ${noun(shown)} in ${dbPath}${context.filtered} · ${show}`;
}

function printTable(io: CommandIo, rows: readonly SessionSummary[], dbPath: string, total: number, context: FooterContext): void {
  const colors = terminalColors(shouldUseColor({ isTTY: io.stdoutIsTerminal === true, env: io.env }));
  const paint = { running: colors.blue, paused: colors.yellow, done: colors.green, halted: colors.red };
  const table = new Table({
    // Newest created first; the last column is how long ago each last changed (a resumed session's is recent).
    head: ['id', 'task', 'agent', 'status', 'turns', 'changed'].map((title) => colors.bold(title)),
    style: { head: [], border: [], compact: true },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
  const now = Date.now();
  for (const row of rows) {
    // A running session's last decision is an earlier turn's: a HALT there (a Ctrl-C) is what its resume goes past.
    const why = row.parked === true ? 'parked' : row.queued === true ? 'queued' : row.orphaned === true ? 'no host' : row.lastDecision !== null && (row.status === 'halted' || row.status === 'paused') ? (row.lastDecision.split(' ')[1] ?? '') : undefined;
    const status = why === undefined ? row.status : `${row.status} (${why})`;
    table.push([row.sid, oneLine(row.task, 40), oneLine(row.agent, 16), paint[row.status](status), String(row.turns), formatAge(row.updatedAt, now)]);
  }
  const orphaned = rows.filter((row) => row.orphaned === true);
  // What "no host" means and what to do about it, once under the table (the first such session as the example).
  const note = orphaned.length === 0 ? '' : `${orphaned.length === 1 ? '1 running session has' : `${orphaned.length} running sessions have`} no host (it stopped mid-session): askloop resume ${orphaned[0]?.sid}${context.dbArgs} continues ${orphaned.length === 1 ? 'it' : 'one'}\n`;
  io.stdout(`${table.toString()}\n${note === '' ? '' : colors.yellow(terminalSafe(note.trimEnd()))}${note === '' ? '' : '\n'}${colors.dim(terminalSafe(sessionsFooter(rows.length, total, dbPath, context)))}\n`);
}

/** `askloop sessions`. */
export const sessionsCommand: Command = {
  usage: `Usage: askloop sessions [--db FILE] [--config FILE] [--status S] [--search TEXT] [--limit N] [--json]

Lists the stored sessions, the newest created first: id, task, agent,
status, turns and how long ago each last changed. Then 'askloop show SID' prints one turn by turn.

Options:
  --db FILE       the sessions file, or a PostgreSQL store postgres://…
                  (default: the store of the config file, else the file
                  askloop run uses: $XDG_DATA_HOME/askloop/sessions.db
                  or ~/.local/share/askloop/sessions.db).
  --config FILE   the config file whose store to use (default
                  ./askloop.config.yaml when present).
  --status S      only running, paused, done or halted sessions.
  --search TEXT   only the sessions whose id, agent or task contains TEXT
                  (A–Z in either case; the store searches).
  --limit N       at most N sessions (1 to 100000; default all).
  --json          a JSON array of {"sid","task","agent","status","turns",
                  "createdAt","updatedAt","lastDecision","parentSid"}, and
                  "parked":true for a running session a worker's failed
                  steps parked and "queued":true for one waiting for a
                  worker to take its next turn (PostgreSQL; the table says
                  running (parked) and running (queued)), "orphaned":true for a running
                  session whose host stopped mid-session (askloop resume
                  SID continues it).
`,
  jsonErrors: (args) => args.includes('--json'),
  async run(args, io) {
    const { values, positionals } = parseArgs({ args, options: { db: { type: 'string' }, config: { type: 'string' }, status: { type: 'string' }, search: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' } }, allowPositionals: true, strict: true });
    if (positionals.length > 0) throw usageError(`askloop sessions takes no arguments; to see one session: askloop show ${positionals[0]}`);
    const status = values.status === undefined ? undefined : choiceOption('status', values.status, STATUSES);
    const limit = integerOption('limit', values.limit, { min: 1, max: 100_000 });
    const search = searchOption(values.search);
    const { store, where: dbPath, queueEntries } = await openSessionsReader(await sessionsStoreLocation(values, io));
    let rows: SessionSummary[] = [];
    let total = 0;
    if (store !== undefined) {
      try {
        const filter = { ...(status === undefined ? {} : { status }), ...(search === undefined ? {} : { search }) };
        // A task may quote a key of the environment: redacted as `show` and the viewer redact it.
        const redact = createSecretRedactor(io.env, followKnownSecretNames(io));
        rows = (await store.listSessions({ ...filter, ...(limit === undefined ? {} : { limit }) })).map((session) => redact(summary(session)) as SessionSummary);
        // Only running sessions can be parked: one query for them all.
        const queued = (await queueEntries?.(rows.filter((row) => row.status === 'running').map((row) => row.sid))) ?? new Map<string, QueueEntry>();
        rows = rows.map((row) => {
          const state = queued.get(row.sid)?.state;
          return state === 'failed' ? { ...row, parked: true } : state === 'ready' ? { ...row, queued: true } : row;
        });
        rows = await markOrphaned(store, rows, queued);
        // A full page may hide more: count them (a COUNT query, no session read), so the footer does not pass the page off as all there is.
        total = limit !== undefined && rows.length === limit && values.json !== true ? await countSessions(store, filter) : rows.length;
      } finally {
        await store.close();
      }
    }
    const filtered = `${status === undefined ? '' : ` with status ${status}`}${search === undefined ? '' : ` matching ${JSON.stringify(search)}`}`;
    const continued = continueArgs({ db: values.db, config: values.config }, io.cwd);
    // A hidden password cannot be pasted back: said, as run's next steps say it.
    const dbArgs = `${continued.text}${continued.dbRedacted ? ` ${REDACTED_DB_NOTE}` : ''}`;
    if (values.json === true) io.stdout(`${JSON.stringify(rows)}\n`);
    // With a filter, the store may well hold sessions: starting one is no answer. Without --db, run uses this store too.
    else if (rows.length === 0) io.stdout(`No sessions in ${dbPath}${filtered}.${filtered === '' ? ` askloop run "<task>"${dbArgs} starts one.` : ''}\n`);
    else printTable(io, rows, dbPath, total, { filtered, dbArgs });
    return 0;
  },
};

/**
 * Marks the running sessions no host runs (see `isOrphaned`). Only those quiet for a while and in no worker queue are
 * looked up, one lease read each: a busy store's many running sessions are updated often, or queued.
 */
async function markOrphaned(store: Parameters<typeof isOrphaned>[0], rows: SessionSummary[], queued: ReadonlyMap<string, QueueEntry>): Promise<SessionSummary[]> {
  const now = Date.now();
  const marked: SessionSummary[] = [];
  for (const row of rows) {
    const suspect = row.status === 'running' && !queued.has(row.sid) && now - Date.parse(row.updatedAt) > ORPHAN_QUIET_MS;
    // A store that fails the read says nothing of a crash: the row stays as it reads.
    const orphaned = suspect && (await isOrphaned(store, row, now).catch(() => false));
    marked.push(orphaned ? { ...row, orphaned: true } : row);
  }
  return marked;
}

/** `--search`: text the stores can search for (no control characters, at most their limit), or a usage error. */
function searchOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  // A bad value, as a bad --status or --limit is (not a usage error: the option was used right).
  if (value.length > MAX_LIST_SEARCH_LENGTH) throw new CliError('CLI_OPTION_INVALID', `--search: at most ${MAX_LIST_SEARCH_LENGTH} characters, got ${value.length}`);
  const problem = characterProblem(value);
  if (problem !== undefined) throw new CliError('CLI_OPTION_INVALID', `--search ${problem}`);
  return value;
}
