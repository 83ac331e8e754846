/**
 * `askloop show SID [--turn N|N..M]... [--last N] [--db FILE] [--config FILE] [--full] [--json]`:
 * one stored session, turn by turn — system text, envelope, reply, program,
 * diagnostics, tool calls, emits, decision. SID may be a unique prefix of the id.
 */
import { turnSpend, type SessionRecord, type TranscriptStore } from '@askloop/controller';
import type { QueueEntry } from '@askloop/postgres';
import { parseArgs } from 'node:util';
import { CliError, usageError } from '../cli-error.ts';
import { sessionsStoreLocation } from '../config/sessions-db-path.ts';
import type { Command } from '../io.ts';
import { decisionReason, paintDecision } from '../progress/format-turn-parts.ts';
import { formatCost, formatCount, formatCounted, oneLine } from '../progress/format-values.ts';
import { shouldUseColor, terminalColors, type TerminalColors } from '../progress/terminal-colors.ts';
import { terminalSafe } from '../progress/terminal-safe.ts';
import { knownSecretNames } from '../known-secret-names.ts';
import { createSecretRedactor } from '../redact-secrets.ts';
import { continueArgs } from '../loop/continue-hint.ts';
import { formatStoredTurn } from './format-stored-turn.ts';
import { parseLastCount, parseTurnRange, selectTurns } from './turn-selection.ts';
import { sharedSystemAfter, type SharedSystemShown } from './format-system-text.ts';
import { openSessionsReader } from './open-sessions-reader.ts';
import { taskOrUserdata } from './sessions.ts';
import { isOrphaned } from '../view/orphaned-session.ts';
import { resolveSessionId } from '../view/resolve-session-id.ts';

/** How much of a task `show` prints without `--full`: a long one (a pasted document) would push the turns off screen. */
export const TASK_SHOWN_CHARS = 300;

/**
 * The task on one line (a short one too: its second line printed at column 0
 * read as another field), cut to {@link TASK_SHOWN_CHARS} with how long it is,
 * or whole (as given) with `--full`.
 */
function taskLine(task: string, full: boolean, colors: TerminalColors): string {
  if (full) return terminalSafe(task);
  const line = oneLine(task, TASK_SHOWN_CHARS);
  if (line === oneLine(task, Number.POSITIVE_INFINITY)) return line;
  // Characters as a person counts them: an emoji is one.
  return `${line} ${colors.dim(`(${formatCount([...task].length)} characters; --full shows it whole)`)}`;
}

function notFound(sid: string, dbPath: string): CliError {
  return CliError.fromLoopError({ code: 'LOOP_SESSION_NOT_FOUND', message: `no session '${sid}' in ${dbPath}; askloop sessions lists them` });
}

/** The session with id `sid`, or the only one whose id starts with it. */
async function findSession(store: TranscriptStore, sid: string, dbPath: string): Promise<SessionRecord> {
  const session = await store.getSession(await resolveSessionId(store, sid, dbPath));
  if (session === undefined) throw notFound(sid, dbPath);
  return session;
}

/** `askloop show`. */
export const showCommand: Command = {
  usage: `Usage: askloop show SID [--turn N|N..M]... [--last N] [--db FILE] [--config FILE] [--full] [--json]

Prints a stored session turn by turn: the system text's size, the envelope
sent, the model's reply, the program (numbered), the check's diagnostics,
tool calls, emits and whispers, any failure, and the decision. SID may be the start of an id (at
least 4 characters) when only one session matches.

Options:
  --turn N|N..M   print only these turns (numbered from 1; N.. and ..M
                  leave an end open); may be repeated. The header still
                  counts the whole session.
  --last N        print only the last N turns (of those --turn takes).
  --db FILE       the sessions file, or postgres://… (default: as askloop sessions).
  --config FILE   the config file whose store to use.
  --full          print the task, envelopes and replies whole and every
                  tool call of a turn, its arguments and result whole
                  (default: the task's first 300
                  characters on one line, 12 lines of each envelope and
                  reply, the first 20 tool calls), and the system text the
                  model got: the first turn's whole, then each turn's own
                  part after the agent's shared one (the budget line,
                  repair and fix notes), the shared part again only when
                  it changed.
  --json          {"ok":true,"session":{…},"turns":[…turn records…]} (the
                  turns --turn and --last take), and
                  on PostgreSQL "queue":{"state","failures","lastError"}
                  (state failed: parked by a worker's failed steps).
`,
  jsonErrors: (args) => args.includes('--json'),
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: { db: { type: 'string' }, config: { type: 'string' }, full: { type: 'boolean' }, json: { type: 'boolean' }, turn: { type: 'string', multiple: true }, last: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length !== 1) throw usageError(positionals.length === 0 ? 'askloop show needs a session id: askloop show SID (askloop sessions lists them)' : 'askloop show takes one session id');
    // Read before the store opens: a malformed selection is the command line's mistake, whatever the store holds.
    const selection = { ...(values.turn === undefined ? {} : { ranges: values.turn.map(parseTurnRange) }), ...(values.last === undefined ? {} : { last: parseLastCount(values.last) }) };
    const sid = positionals[0] as string;
    const { store, where: dbPath, queueEntries } = await openSessionsReader(await sessionsStoreLocation(values, io));
    if (store === undefined) throw notFound(sid, dbPath);
    let session: SessionRecord;
    let turns;
    let queued: QueueEntry | undefined;
    let orphaned = false;
    try {
      session = await findSession(store, sid, dbPath);
      turns = await store.listTurns(session.sid);
      queued = (await queueEntries?.([session.sid]))?.get(session.sid);
      // A `running` session whose host crashed (its lease lapsed, quiet since): said, as the viewer says it.
      orphaned = queued === undefined && (await isOrphaned(store, session).catch(() => false));
    } finally {
      await store.close();
    }
    // A second line of defence, as the viewer's: a tool result or error the records kept may quote a key.
    const redact = createSecretRedactor(io.env, knownSecretNames(io));
    session = redact(session) as SessionRecord;
    // Only the turns printed: the others give the header's totals, numbers alone (a --last 1 of 10,000 redacted all).
    const shown = redact(selectTurns(turns, selection, session.sid)) as typeof turns;
    const lastError = queued?.lastError === undefined || queued.lastError === null ? null : (redact(queued.lastError) as string);
    const queue = queued === undefined ? {} : { queue: { state: queued.state, failures: queued.failures, lastError } };
    if (values.json === true) {
      io.stdout(`${JSON.stringify({ ok: true, session, turns: shown, ...queue, ...(orphaned ? { orphaned: true } : {}) })}\n`);
      return 0;
    }
    const colors = terminalColors(shouldUseColor({ isTTY: io.stdoutIsTerminal === true, env: io.env }));
    // What the loop spent, its asks' child loops included, as the run's own summary counts it (`turnSpend`): all its
    // turns, whichever --turn prints.
    const spends = turns.map(turnSpend);
    const tokens = spends.reduce((sum, spend) => sum + spend.inputTokens + spend.outputTokens, 0);
    const cost = spends.reduce((sum, spend) => sum + spend.costUsd, 0);
    // A model without prices gives replies no cost: "$0.0000" would read as free.
    const costKnown = turns.every((turn) => turn.reply === undefined) || turns.some((turn) => turn.reply?.costUsd !== undefined);
    const last = session.lastDecision;
    let out = `${colors.bold(`session ${session.sid}`)}\n`;
    out += `  task     ${taskLine(taskOrUserdata(session), values.full === true, colors)}\n`;
    out += `  agent    ${terminalSafe(session.agent)}${session.parentSid === undefined ? '' : colors.dim(` (asked by ${session.parentSid})`)}\n`;
    // A running session that last halted or paused was resumed past that decision: it is not its state.
    const resumedPast = session.status === 'running' && (last?.kind === 'HALT' || last?.kind === 'PAUSE') ? 'resumed after ' : '';
    out += `  status   ${session.status}${last === undefined ? '' : ` · ${resumedPast}${paintDecision(last.kind, colors)} ${terminalSafe(decisionReason(last))}`.trimEnd()}\n`;
    // A session a worker's failed steps parked still reads `running`: no worker takes it until it is queued again.
    if (queued?.state === 'failed') {
      const last = lastError === null ? '' : ` (last: ${terminalSafe(lastError)})`;
      out += `  queue    ${colors.bold('parked')} after ${queued.failures} failed steps${last}; no worker takes it until askloop resume ${session.sid}${continueArgs({ db: values.db }, io.cwd).text} --detach queues it again\n`;
    }
    // A queued session also reads `running` before any worker took it (`run --detach`): said, or it reads as under way.
    if (queued?.state === 'ready') out += `  queue    waiting for an askloop worker on this store to take its next turn${queued.failures === 0 ? '' : ` (${formatCounted(queued.failures, 'failed step')} so far${lastError === null ? '' : `; last: ${terminalSafe(lastError)}`})`}\n`;
    if (queued?.state === 'leased') out += `  queue    a worker is taking its next turn\n`;
    if (orphaned) out += `  host     ${colors.bold('none')}: the host running it stopped mid-session (its lease lapsed); askloop resume ${session.sid}${continueArgs({ db: values.db }, io.cwd).text} continues it\n`;
    out += `  turns    ${session.turns} decided · ${formatCount(tokens)} tokens · ${formatCost(cost, costKnown)} · created ${session.createdAt} · updated ${session.updatedAt}\n`;
    // With --full, each turn's system text past the agent's shared part, printed once while it stays the same.
    let system: SharedSystemShown | undefined;
    for (const turn of shown) {
      out += formatStoredTurn(turn, { colors, width: 100, full: values.full === true, system });
      system = sharedSystemAfter(turn, system);
    }
    io.stdout(out);
    return 0;
  },
};
