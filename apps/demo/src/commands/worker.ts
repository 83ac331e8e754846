/**
 * `askloop worker [--db postgres://…] [--lease-ms N] [--script FILE] [--fs-root DIR] [--json]`:
 * a host that takes turns from the PostgreSQL store's queue until Ctrl-C.
 */
import { builtinPlugin, createAskLoop, definePlugin, isResumableHalt } from '@askloop/controller';
import { createLeaseBoundStores, createSessionQueue, isPermissionDenied, runWorker, type WorkerStepEvent } from '@askloop/postgres';
import { createScriptedProvider, type ScriptedTurn } from '@askloop/providers';
import { parseArgs } from 'node:util';
import { usageError } from '../cli-error.ts';
import { configForRun } from '../config/config-for-run.ts';
import { atStorePlace, locateStoreError } from '../config/store-place.ts';
import type { Command } from '../io.ts';
import { continueArgs, REDACTED_DB_NOTE, type ContinueArgs } from '../loop/continue-hint.ts';
import { hostToolNames } from '../options/allow-pattern-warnings.ts';
import { guardMissingTools } from './worker-tools-guard.ts';
import { refusedRights } from '../loop/host-rights.ts';
import { openPostgresSessionStore } from '../loop/open-postgres-store.ts';
import { asCliLoopError } from '../loop/open-session-loop.ts';
import { readScript } from '../loop/read-script.ts';
import { resolveStoreLocation } from '../loop/store-location.ts';
import { directoryOption, integerOption } from '../options/parse-options.ts';
import { followKnownSecretNames } from '../known-secret-names.ts';
import { createSecretRedactor, environmentSecretsOf } from '../redact-secrets.ts';
import { failureText } from '../progress/format-turn-parts.ts';
import { formatCounted, oneLine } from '../progress/format-values.ts';
import { terminalSafe } from '../progress/terminal-safe.ts';
import { grantHintLine } from '../loop/grant-hint-line.ts';

/** The scripted model of a worker: reply N answers turn N of any session (a session's turns run on many hosts). */
function repliesByTurn(replies: readonly string[]): (turn: ScriptedTurn) => string | { error: 'PROVIDER_SCRIPT_EXHAUSTED'; errorMessage: string } {
  return ({ system }) => {
    // The budget line of the system text names the turn ("turn 2 of 8"); the call count would restart on every host.
    const turn = Number(/\bturn (\d+) of \d+/.exec(system ?? '')?.[1]);
    const reply = Number.isInteger(turn) ? replies[turn - 1] : undefined;
    return reply ?? { error: 'PROVIDER_SCRIPT_EXHAUSTED', errorMessage: `the --script file has ${replies.length} replies and this is turn ${turn}` };
  };
}

/**
 * The stable code of a step's error: its own, or the first in its `cause` chain (a store's `PG_…` under the
 * controller's wrapping). For a lost lease, the lease's code wherever it sits in the chain (`PG_LEASE_LOST` for the
 * queue's lease, `LOOP_LEASE_LOST` for the session lease a plain host took): the controller wraps it as its store
 * failing (`LOOP_STORE_ERROR`), which reads like any other failure of the database.
 */
export function stepErrorCode(error: unknown, outcome?: WorkerStepEvent['outcome']): string | undefined {
  const codes: string[] = [];
  let current = error;
  for (let depth = 0; depth < 10 && typeof current === 'object' && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/.test(code)) codes.push(code);
    current = (current as { cause?: unknown }).cause;
  }
  if (outcome === 'lease-lost') return codes.find((code) => code.endsWith('_LEASE_LOST')) ?? 'PG_LEASE_LOST';
  return codes[0];
}

/**
 * The line `askloop worker` prints for a step on standard error. `answerWith`
 * is what an `approve` or `deny` of a paused session needs again — the
 * worker's `--db`, `--config`, `--script` and `--fs-root` — as shell words;
 * `queueWith`, what `resume --detach` needs (the worker's `--db`). A halt on
 * a tool call denied for want of a grant gets a second line, the `grant:` line
 * `askloop run` prints after its cause.
 */
export function describeStep(event: WorkerStepEvent, answerWith: ContinueArgs = NO_ARGS, queueWith: ContinueArgs = NO_ARGS): string {
  const code = stepErrorCode(event.error, event.outcome);
  if (event.outcome === 'committed') {
    const why = event.reason === undefined || event.reason === null ? '' : ` ${event.reason}`;
    // The session had ended before the step (another host finished it): nothing ran here.
    if (event.decided === false) return `${event.sid}: already ${event.status}${event.status === 'HALT' ? why : ''} after ${event.turns} turn${event.turns === 1 ? '' : 's'}; no turn ran here`;
    if (event.status === 'PAUSED') {
      const note = answerWith.dbRedacted ? ` ${REDACTED_DB_NOTE}` : '';
      // A turn held for approval is not decided yet: the one after the decided ones. A v1 `await` turn ran and counts.
      const turn = event.reason === 'AWAITING_APPROVAL' ? (event.turns ?? 0) + 1 : (event.turns ?? 0);
      return `${event.sid}: turn ${turn} PAUSED${why}; answer it with askloop approve ${event.sid}${answerWith.text} or askloop deny ${event.sid}${answerWith.text}${note}`;
    }
    // A halt that `resume` continues (a provider's outage, a cancel) waits for it: say so, or it reads as the end.
    const failure = event.failure ?? null;
    // The failure behind a HALT, else what the decision says (a ceiling's figures: `the loop's token or cost ceiling is spent (2536 tokens, …)`,
    // or a v1 model's own reason for its halt: escaped, as all model text on a terminal).
    const said = event.message === undefined || event.message === null || event.message === '' ? '' : ` (${terminalSafe(event.message.replace(/\s*\r?\n\s*/g, ' '))})`;
    // On one line and terminal-safe: the message quotes what the program asked for (a path, a URL), and a newline or an
    // ESC in it would print what the program chose, such as a `grant:` line naming a grant the call did not need.
    const cause = event.status !== 'HALT' ? '' : failure !== null ? ` (${oneLine(failureText(failure), Number.POSITIVE_INFINITY)})` : said;
    const note = queueWith.dbRedacted ? ` ${REDACTED_DB_NOTE}` : '';
    const resumable = event.status === 'HALT' && isResumableHalt(event.reason, failure) ? `; askloop resume ${event.sid}${queueWith.text} --detach queues it again${note}` : '';
    // A denial for want of a grant: only the operator can give it, so the line after says what to add, as run's does.
    const grant = event.status === 'HALT' && failure !== null ? grantHintLine(failure) : undefined;
    return `${event.sid}: turn ${event.turns} ${event.status}${event.status === 'HALT' ? why : ''}${cause}${resumable}${grant === undefined ? '' : `\n${grant}`}`;
  }
  if (event.outcome === 'lease-lost') return `${event.sid}: lease lost; another host continues the session${code === undefined ? '' : ` (${code})`}`;
  if (event.outcome === 'conflict') return `${event.sid}: PostgreSQL failed the step to break a conflict with another transaction (a deadlock); offered again at once${code === undefined ? '' : ` (${code})`}`;
  const message = event.error instanceof Error ? event.error.message : String(event.error);
  // A session run with --script asks for the provider `scripted`, which only a worker given --script has.
  const scriptHint = code === 'LOOP_PROVIDER_NOT_FOUND' && /\bscripted\b/.test(message) ? '; a session run with --script needs a worker started with --script FILE' : '';
  // This worker lacks the session's tools or provider: another worker takes it (no failure counted).
  if (event.outcome === 'skipped') return `${event.sid}: left to another worker: ${message}${scriptHint}${code === undefined ? '' : ` (${code})`}; this worker looks at it again in a minute`;
  return `${event.sid}: step failed: ${message}${scriptHint}${code === undefined ? '' : ` (${code})`}`;
}

const NO_ARGS: ContinueArgs = { text: '', dbRedacted: false };

/**
 * The line for a request for work the database did not answer (the worker asks again after `retry.waitMs`): its code
 * and when it tries again, or with `json` the `{"outcome":"queue-unreachable",…}` object. Not yet redacted.
 */
export function describeUnreachable(error: unknown, retry: { readonly failures: number; readonly waitMs: number }, json: boolean): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = stepErrorCode(error, 'failed') ?? 'PG_QUERY_FAILED';
  if (json) return JSON.stringify({ outcome: 'queue-unreachable', error: message, code, failures: retry.failures, retryInMs: retry.waitMs });
  return `askloop worker: cannot reach the queue (${message}); trying again in ${Math.round(retry.waitMs / 1000)} s (${code})`;
}

/**
 * The line for a session a failed step left parked (its queue row `failed`): no worker takes it again until it is
 * queued again, while `sessions` and `show` still call it running.
 */
export function describeParked(sid: string, failures: number, lastError: string | null, queueWith: ContinueArgs = NO_ARGS): string {
  const last = lastError === null ? '' : ` (last: ${lastError})`;
  return `${sid}: parked after ${failures} failed steps${last}; no worker takes it again until you fix the cause and askloop resume ${sid}${queueWith.text} --detach queues it again${queueWith.dbRedacted ? ` ${REDACTED_DB_NOTE}` : ''}`;
}

/** `askloop worker`. */
export const workerCommand: Command = {
  usage: `Usage: askloop worker [--db postgres://USER@HOST:PORT/DB] [--config FILE]
                      [--lease-ms N] [--script FILE] [--fs-root DIR] [--json]

Runs turns of queued sessions (askloop run --detach) from a PostgreSQL store,
one turn at a time, until Ctrl-C (it finishes the turn in flight first). Any
number of workers, on any hosts, share the queue: each session has at most
one turn in flight, held by a lease the worker renews while the turn runs. A
worker that dies mid-turn loses nothing: when its lease expires another
worker runs the turn again from its recorded reply, and the dead worker's
tool effects, which never committed, do not count twice.

Options:
  --db URL          the PostgreSQL store (default: store: of the config file).
  --config FILE     the config file whose store: and plugins to use (default
                    ./askloop.config.yaml when present).
  --lease-ms N      how long a lease lasts unrenewed, 1000 to 3600000
                    (default 30000): how soon a dead worker's session moves on.
  --script FILE     serve sessions whose model is scripted:script (run with
                    --script) from FILE: reply N answers turn N. Without it
                    such a session's step fails and waits for a worker
                    that has the file.
  --fs-root DIR     add the tool.fs.* tools, confined to DIR.
  --json            one JSON line per step on standard output:
                    {"sid","outcome","status","reason","turns"} (outcome
                    committed, lease-lost, conflict, skipped (this
                    worker lacks the session's tools or provider; left
                    to another worker, no failure counted) or failed; a HALT or
                    PAUSE adds its "message", and "failure" when the turn
                    failed; "decided": false for a session another
                    host had ended already, where no turn ran), and for all
                    but a committed step "error" and its stable "code"
                    (PG_LEASE_LOST, LOOP_PROVIDER_NOT_FOUND, …); after a
                    failed step that parked its session, a line
                    {"sid","outcome":"parked","failures","error"}; while
                    the database cannot be reached, a line
                    {"outcome":"queue-unreachable","error","code",
                    "failures","retryInMs"} before each wait (1 s, doubling
                    up to 30 s).

Output: one line per step on standard error ("SID: turn N RUNNING|DONE|…";
a lost lease, a conflict or a failed step ends with its code; a session a
failed step parked gets a line saying how to queue it again), and a summary
when it stops. A conflict is a step PostgreSQL failed to break a deadlock
with another transaction: rolled back, it is offered again at once, and does
not count toward parking the session as failed (unless ten come in a row). Exit code 0 after Ctrl-C; 1 when the store
cannot be opened; 2 a usage error.
`,
  jsonErrors: (args) => args.includes('--json'),
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: { db: { type: 'string' }, config: { type: 'string' }, 'lease-ms': { type: 'string' }, script: { type: 'string' }, 'fs-root': { type: 'string' }, json: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length > 0) throw usageError(`askloop worker takes no arguments (got ${JSON.stringify(positionals[0])})`);
    const leaseMs = integerOption('lease-ms', values['lease-ms'], { min: 1000, max: 3_600_000, unit: 'milliseconds' }) ?? 30_000;
    const fsRoot = directoryOption('fs-root', values['fs-root'], io.cwd);
    // The config's plugins (providers, tool packs, MCP servers) serve sessions queued with its agents; its store is the queue's.
    const config = await configForRun({ config: values.config }, io);
    const location = resolveStoreLocation(values.db, config, io);
    // The config's store, when it is the one used: a store that cannot be used is reported at its line.
    const storePlace = values.db === undefined ? config.storePlace : undefined;
    if (location.kind !== 'postgres') throw locateStoreError(usageError('askloop worker needs a PostgreSQL store: --db postgres://USER@HOST:PORT/DB, or store: postgres://… in askloop.config.yaml'), storePlace);
    const replies = values.script === undefined ? [] : await readScript(values.script, io);
    const url = location.url;
    const opened = await atStorePlace(storePlace, () => openPostgresSessionStore(url));
    const { pool } = opened;
    const { store } = opened;
    const stores = createLeaseBoundStores(pool);
    // Only with --script: a worker without it must not answer a scripted session with "no reply left" (a HALT), but
    // leave it to one that has the file (LOOP_PROVIDER_NOT_FOUND: the step fails and the session waits, untouched).
    const scripted = values.script === undefined ? [] : [definePlugin({ name: 'askloop-scripted', specificationVersion: 'v1', providers: { scripted: createScriptedProvider({ models: { script: repliesByTurn(replies) } }) } })];
    const plugins = [builtinPlugin({ http: { ...config.http }, ...(fsRoot === undefined ? {} : { fs: { root: fsRoot } }), ...(config.providers === undefined ? {} : { providerSettings: config.providers }) }), ...scripted, ...config.plugins];
    let loop;
    try {
      loop = createAskLoop({
        plugins,
        store: stores.transcript,
        toolStores: stores.toolStores,
        // The controller's own session lease lapses with the queue's, so a dead worker's session moves on as soon.
        sessionLeaseMs: leaseMs,
        // The environment's keys out of what tools give back, as on any host (open-session-loop.ts).
        secrets: environmentSecretsOf(io.env, followKnownSecretNames(io)),
      });
    } catch (error) {
      await store.close();
      return asCliLoopError(error, plugins);
    }
    // A paused session is answered from any host, with what this worker serves it with.
    const answerWith = continueArgs({ db: values.db, config: config.file, script: values.script, fsRoot }, io.cwd);
    const queueWith = continueArgs({ db: values.db }, io.cwd);
    // Every line it prints passes the redactor run, show and the viewer use: a step's error may quote a key (a plugin's hook, an MCP server);
    // the error the queue keeps (lastError, which `sessions` and other hosts read) too.
    const redact = createSecretRedactor(io.env, followKnownSecretNames(io));
    const queue = createSessionQueue(pool, { leaseMs, redact: (text) => redact(text) as string });
    /** After a failed step: whether it parked the session (its queue row `failed`), said on a line of its own. */
    const reportIfParked = async (sid: string): Promise<void> => {
      const entry = await queue.entry(sid).catch(() => undefined);
      if (entry?.state !== 'failed') return;
      if (values.json === true) io.stdout(`${JSON.stringify(redact({ sid, outcome: 'parked', failures: entry.failures, error: entry.lastError }))}\n`);
      else io.stderr(`${redact(describeParked(sid, entry.failures, entry.lastError, queueWith)) as string}\n`);
    };
    const stop = new AbortController();
    const stopListening = io.onInterrupt?.((signal) => {
      io.stderr(`askloop worker: ${signal === 'SIGINT' ? '' : 'SIGTERM: '}stopping after the turn in flight (${signal === 'SIGINT' ? 'Ctrl-C again' : 'a second one'} to quit at once)\n`);
      stop.abort();
    });
    io.stderr('askloop worker: taking turns (Ctrl-C to stop)\n');
    // A database away for a while is waited for; a role without the rights to the queue will not heal by waiting.
    let refused: unknown;
    /** The park checks under way (each forgets itself when done: a worker runs for days). */
    const parkChecks = new Set<Promise<void>>();
    try {
      const stats = await runWorker({
        // A session whose agent allows tools this worker lacks is left to a worker that has them (worker-tools-guard.ts).
        loop: guardMissingTools(loop, store, hostToolNames([...scripted, ...config.plugins], io.cwd, fsRoot)),
        stores,
        queue,
        signal: stop.signal,
        onError: (error, retry) => {
          if (isPermissionDenied(error)) {
            refused = error;
            stop.abort();
            return;
          }
          const line = describeUnreachable(error, retry, values.json === true);
          if (values.json === true) io.stdout(`${redact(line) as string}\n`);
          else io.stderr(`${redact(line) as string}\n`);
        },
        onStep: (event) => {
          // A step the role may not write (a right missing from its grants) fails every session alike: stop, as for the queue.
          if (event.outcome === 'failed' && refused === undefined && isPermissionDenied(event.error)) {
            refused = event.error;
            stop.abort();
          }
          if (values.json === true) {
            const error = event.error === undefined ? undefined : event.error instanceof Error ? event.error.message : String(event.error);
            const code = stepErrorCode(event.error, event.outcome);
            const failure = event.failure ?? null;
            // `message` as `run --json` gives it: only for a HALT or PAUSE.
            const message = event.status === 'HALT' || event.status === 'PAUSED' ? (event.message ?? null) : null;
            io.stdout(`${JSON.stringify(redact({ sid: event.sid, outcome: event.outcome, status: event.status ?? null, reason: event.reason ?? null, turns: event.turns ?? null, ...(event.decided === false ? { decided: false } : {}), ...(message === null ? {} : { message }), ...(failure === null ? {} : { failure }), ...(error === undefined ? {} : { error }), ...(code === undefined ? {} : { code }) }))}\n`);
          } else io.stderr(`${redact(describeStep(event, answerWith, queueWith)) as string}\n`);
          if (event.outcome === 'failed') {
            const check: Promise<void> = reportIfParked(event.sid).finally(() => parkChecks.delete(check));
            parkChecks.add(check);
          }
        },
      });
      await Promise.all([...parkChecks]);
      io.stderr(`askloop worker: ${formatCounted(stats.committed, 'turn')} committed, ${formatCounted(stats.leaseLost, 'lease')} lost, ${formatCounted(stats.conflicts, 'conflict')} retried, ${formatCounted(stats.failed, 'failed step')}${stats.skipped === 0 ? '' : `, ${formatCounted(stats.skipped, 'session')} left to other workers`}${stats.ended === 0 ? '' : `, ${formatCounted(stats.ended, 'session')} found ended already`}\n`);
      if (refused !== undefined) throw (await refusedRights(refused, 'the sessions database refused this worker')) ?? refused;
      return 0;
    } finally {
      stopListening?.();
      await loop.close();
      await store.close();
    }
  },
};
