/**
 * The stores a worker's `AskLoop` uses: the PostgreSQL transcript and tool
 * stores, bound for the length of one step to the worker's lease on one
 * session. While bound:
 *
 * - the leased session's writes before any tool effect (the turn's
 *   `asking`, `prepared`, `executing` records) commit one by one, each in a
 *   transaction that first checks the lease (token and expiry, under a
 *   share lock of the queue row): a host that lost its lease fails with
 *   `PG_LEASE_LOST` and writes nothing;
 * - from the turn's first tool-store call, or its final record (`decided`
 *   or `awaiting-approval`), everything — the tools' memory, scratch and
 *   idempotence records, the rest of the turn's records, the session row —
 *   goes into **one transaction** that `commit` ends: it locks the queue
 *   row, checks the lease once more, moves the session on in the queue and
 *   logs the step, then commits. So a turn's tool effects and idempotence
 *   records commit together with the decided turn, or not at all: a host
 *   killed mid-turn leaves the turn at its last committed phase with none
 *   of its effects, and the next host re-runs it from its recorded reply.
 *
 * The controller's own session lease, which a plain host (`askloop resume`,
 * any loop on the plain store) takes without the queue, is checked as well:
 * in the statement of each write committed on its own, and once in the
 * commit's transaction for the rest (`CommitCheckedRunner`; its row is not
 * locked through the step, where it would hold up the renewals). A worker
 * whose session lease lapsed and was taken over while its queue lease held
 * fails with `LOOP_LEASE_LOST` and keeps nothing of the step.
 *
 * One lease at a time: a worker runs one step at a time on its loop. Other
 * sessions' writes (the children of `ask`) go straight to the pool.
 */
import { createLeaseTokens, isLoopError, type TranscriptStore } from '@askloop/controller';
import type { ToolStores } from '@askloop/tools';
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import { isConflictFromServer, PostgresStoreError } from '../errors/postgres-store-error.ts';
import { finishLeasedStep, leaseLost, type Lease } from '../queue/session-queue.ts';
import { checkOut, inTransaction, poolRunner, queryFailure, sqlState, transactionRunner, type CheckedOutClient, type Queryable, type StatementRunner } from '../sql/statement-runner.ts';
import { toolStoresOn, type PostgresToolStoresOptions } from '../tools/postgres-tool-stores.ts';
import { requireSessionLease, transcriptStoreOn, type CommitCheckedRunner, type FencedRunner, type TranscriptRoute } from '../transcript/postgres-transcript-store.ts';

/** What a step ended with, as `loop.step` reports it. */
export interface StepOutcome {
  readonly status: 'DONE' | 'HALT' | 'PAUSED' | 'RUNNING';
  readonly turns: number;
}

/** The stores bound to one lease for one step. */
export interface LeaseBinding {
  readonly lease: Lease;
  /** Aborts when the lease is found lost (pass it to `loop.step`). */
  readonly signal: AbortSignal;
  /** True once the lease is known lost. */
  readonly lost: boolean;
  /**
   * The first error by which PostgreSQL failed a statement of the step's transaction to break a conflict with
   * another transaction (a deadlock, a serialization failure) and left the transaction aborted, if one did. Such a
   * step cannot commit, even when the error went no further (a tool store's write inside a run fails as the tool's
   * error, which the program may handle): `runWorker` rolls it back and offers it again. A failure inside a
   * savepoint that was rolled back to (a scratch entry's write) leaves the transaction whole and is not one: the
   * tool's error is all it was.
   */
  readonly conflict: Error | undefined;
  /** Whether the step saved a decided (or paused) turn of its session; false for a step that only found it ended. */
  readonly decided: boolean;
  /** Records that the lease is lost: later writes fail with `PG_LEASE_LOST` and `signal` aborts. */
  markLost(reason: string): void;
  /** Commits the step (see the file comment); throws `PG_LEASE_LOST` when the lease is gone, having rolled back. */
  commit(outcome: StepOutcome): Promise<void>;
  /** Rolls the step's open transaction back (after a failed step); safe to call twice. */
  rollback(): Promise<void>;
  /**
   * Tells the server the step's open transaction is still in use (a statement on it), as each renewal of the lease
   * does: the server ends a step's transaction left idle for the lease's length, the locks of a host that stopped.
   */
  keepAlive(): void;
  /**
   * Runs `step` (the `loop.step` call) as this binding's work: a tool-store
   * call made anywhere inside it — a tool that ignores its signal and writes
   * long after — belongs to this step, and is refused once the step has
   * ended, even while a later step is bound. Without it a call belongs to
   * whichever step is bound when it writes.
   */
  run<T>(step: () => Promise<T>): Promise<T>;
}

/** The stores to build a worker's loop with, and the binding of a lease. */
export interface LeaseBoundStores {
  /** Pass as `createAskLoop({ store })`. */
  readonly transcript: TranscriptStore;
  /** Pass as `createAskLoop({ toolStores })`. */
  readonly toolStores: ToolStores;
  /** Binds the stores to `lease` until the binding commits or rolls back. Throws when a binding is active. */
  bind(lease: Lease): LeaseBinding;
}

interface ActiveBinding {
  readonly lease: Lease;
  readonly controller: AbortController;
  lostReason: string | undefined;
  /** The step's transaction's client while it is checked out (its connection's errors caught: `checkOut`). */
  client: CheckedOutClient | undefined;
  opening: Promise<StatementRunner> | undefined;
  /** Holders of the controller's session lease whose release waits for the step's commit. */
  readonly releases: string[];
  /** Set when the step committed or rolled back: a call arriving later (a tool outliving its run) must not write. */
  finished: boolean;
  /** See {@link LeaseBinding.conflict}. */
  conflict: Error | undefined;
  /** Set when the step saved a decided (or paused) turn of its session: only such a step is a row of the step log. */
  decided: boolean;
  /** Stops listening to the step's connection for the server ending it (see `transaction`). */
  unlisten: (() => void) | undefined;
  /** Statements of the step in flight on its client: the transaction is not idle, and a ping would queue behind them. */
  statements: number;
}

/** SQLSTATE of the server ending a session whose transaction sat idle past `idle_in_transaction_session_timeout`. */
const IDLE_TRANSACTION_ENDED = '25P03';

/** Records that the binding's lease is lost: later writes fail with `PG_LEASE_LOST`, and the step's signal aborts. */
function loseLease(binding: ActiveBinding, reason: string): void {
  binding.lostReason ??= reason;
  binding.controller.abort(leaseLost(binding.lease, binding.lostReason));
}

/**
 * What a failed commit throws: a lost lease as it is (`PG_LEASE_LOST`, the controller's `LOOP_LEASE_LOST`), anything
 * else as `PG_QUERY_FAILED` with the driver's error as its cause. Before, a connection the server ended came out as the
 * driver's bare error ("Client has encountered a connection error and is not queryable"), with no code.
 */
const commitFailure = (error: unknown, sid: string): Error => (isLoopError(error) ? error : queryFailure('step commit', error, sid));

const stepOver = (lease: Lease): PostgresStoreError =>
  new PostgresStoreError('PG_LEASE_LOST', `the step of session ${lease.sid} under lease ${lease.token} has ended; a call that outlived it writes nothing`, { sid: lease.sid });

/** Creates the stores over `pool` (migrated with `applyPostgresMigrations`). */
export function createLeaseBoundStores(pool: pg.Pool, options: PostgresToolStoresOptions = {}): LeaseBoundStores {
  const plain = poolRunner(pool);
  let active: ActiveBinding | undefined;

  /** The step's transaction, opened on first use. */
  function transaction(binding: ActiveBinding): Promise<StatementRunner> {
    if (binding.lostReason !== undefined) return Promise.reject(leaseLost(binding.lease, binding.lostReason));
    if (binding.finished) return Promise.reject(stepOver(binding.lease));
    binding.opening ??= (async () => {
      const checkedOut = await checkOut(pool);
      binding.client = checkedOut;
      const { client } = checkedOut;
      // A host that stops answering mid-step (a frozen process, a partition that keeps the TCP connection up) would
      // hold its locks (the memory keys and idempotence rows it wrote) until it woke: the host that took the session
      // over would wait on them until its run timed out, and halt the session for good. The server ends a step's
      // transaction that sits idle for the lease's length; a live host keeps it busy from its renewals (`keepAlive`).
      const idleMs = Math.max(1, binding.lease.expiresAt.getTime() - binding.lease.leasedAt.getTime());
      // The server ending it so is the lease lost, not a store failure: the step is reported and abandoned as such.
      const onEnded = (error: unknown): void => {
        if (sqlState(error) === IDLE_TRANSACTION_ENDED) loseLease(binding, `the step made no statement for the lease's ${Math.round(idleMs)} ms, so the server ended its transaction`);
      };
      client.on('error', onEnded);
      binding.unlisten = () => client.off('error', onEnded);
      const counted: Queryable = {
        query: (text, values) => {
          binding.statements += 1;
          return client.query(text, values === undefined ? undefined : [...values]).finally(() => {
            binding.statements -= 1;
          });
        },
      };
      await counted.query(`BEGIN; SET LOCAL idle_in_transaction_session_timeout = ${Math.round(idleMs)}`);
      // Its writes' session leases are checked once, at the commit.
      const noteConflict = (error: unknown): void => {
        if (binding.conflict === undefined && isConflictFromServer(error)) binding.conflict = error;
      };
      const runner: CommitCheckedRunner = { ...transactionRunner(counted, noteConflict), checkedAtCommit: true };
      return runner;
    })();
    return binding.opening;
  }

  /** One write of the leased session, committed now if its lease is live. */
  function fenced(binding: ActiveBinding): FencedRunner {
    const atomic: StatementRunner['atomic'] = (body) => {
      if (binding.lostReason !== undefined) return Promise.reject(leaseLost(binding.lease, binding.lostReason));
      return inTransaction(pool, async (client) => {
        const live = await client.query(
          "SELECT 1 FROM askloop_queue WHERE sid = $1 AND lease_token = $2 AND state = 'leased' AND lease_expires_at > clock_timestamp() FOR SHARE",
          [binding.lease.sid, binding.lease.token],
        );
        if (live.rows.length === 0) {
          binding.lostReason ??= 'expired or taken over';
          throw leaseLost(binding.lease, binding.lostReason);
        }
        return body({ query: (text, values) => client.query(text, values === undefined ? undefined : [...values]) });
      });
    };
    // The transcript's phase saves check the lease inside their one statement (askloop_require_lease).
    const run = async <R extends pg.QueryResultRow>(text: string, values: readonly unknown[]): Promise<pg.QueryResult<R>> => {
      if (binding.lostReason !== undefined) throw leaseLost(binding.lease, binding.lostReason);
      try {
        return await pool.query<R>(text, [...values]);
      } catch (error) {
        if (sqlState(error) !== 'AL001') throw error;
        binding.lostReason ??= 'expired or taken over';
        throw leaseLost(binding.lease, binding.lostReason);
      }
    };
    return { atomic, query: (text, values) => atomic((query) => query.query(text, values)), fence: { sid: binding.lease.sid, token: binding.lease.token, run } };
  }

  const leased = (sid: string): ActiveBinding | undefined => (active !== undefined && active.lease.sid === sid ? active : undefined);

  const route: TranscriptRoute = {
    async read(sid) {
      const binding = leased(sid);
      // Once the step's transaction is open, read the leased session through it (its writes are not committed yet).
      return binding?.opening !== undefined ? transaction(binding) : plain;
    },
    async write(sid, final) {
      const binding = leased(sid);
      if (binding === undefined) return plain;
      if (binding.lostReason !== undefined) throw leaseLost(binding.lease, binding.lostReason);
      return final || binding.opening !== undefined ? transaction(binding) : fenced(binding);
    },
    shared: () => plain,
  };

  // Only inside a step: a tool call that outlives its step must not commit an effect outside any turn, nor in a later
  // step's transaction. A call made in a step's `run` belongs to that step (the sandbox runs tool calls in the async
  // context of the run's caller); outside one, to the step bound now, else the last.
  const stepOf = new AsyncLocalStorage<ActiveBinding>();
  let last: ActiveBinding | undefined;
  const toolStores = toolStoresOn(async () => {
    const binding = stepOf.getStore() ?? active ?? last;
    if (binding === undefined) throw new PostgresStoreError('PG_LEASE_LOST', "a worker's tool stores are used only inside a leased step");
    return transaction(binding);
  }, options);

  async function finish(binding: ActiveBinding, commit: boolean): Promise<void> {
    if (active === binding) active = undefined;
    binding.finished = true;
    // A transaction still opening must finish opening before it can be ended.
    await binding.opening?.catch(() => undefined);
    const checkedOut = binding.client;
    binding.client = undefined;
    binding.unlisten?.();
    binding.unlisten = undefined;
    if (checkedOut === undefined) return releaseSessionLeases(binding);
    const { client } = checkedOut;
    let broken = false;
    try {
      await client.query(commit ? 'COMMIT' : 'ROLLBACK');
    } catch (error) {
      broken = true;
      if (commit) throw error;
    } finally {
      checkedOut.release(broken);
      await releaseSessionLeases(binding);
    }
  }

  /** Gives up the controller's session leases of the step, now that its writes are committed (or rolled back). */
  async function releaseSessionLeases(binding: ActiveBinding): Promise<void> {
    for (const holder of binding.releases.splice(0)) await inner.releaseLease?.(binding.lease.sid, holder).catch(() => undefined);
  }

  /** The tokens of the controller's session leases the transcript took, which the commit checks. */
  const sessionLeases = createLeaseTokens<string>();
  const inner = transcriptStoreOn(route, sessionLeases);
  const transcript: TranscriptStore = {
    ...inner,
    async saveTurn(record, session) {
      await inner.saveTurn(record, session);
      // What the commit logs: a step that decided something. A step of a session that had already ended saves no
      // turn; a turn run again after a HALT saves its decision again, at the same turn count.
      const binding = leased(record.sid);
      if (binding !== undefined && (record.phase === 'decided' || record.phase === 'awaiting-approval')) binding.decided = true;
    },
    // The controller gives its session lease up when the step's work returns, before the worker commits: held
    // until then, another host's `resume` cannot start a turn on writes that are not committed yet.
    async releaseLease(sid, holder) {
      const binding = leased(sid);
      if (binding !== undefined) binding.releases.push(holder);
      else await inner.releaseLease?.(sid, holder);
    },
  };

  return {
    transcript,
    toolStores,
    bind(lease) {
      if (active !== undefined) throw new Error(`lease-bound stores are already bound to session ${active.lease.sid}; one step at a time`);
      const binding: ActiveBinding = { lease, controller: new AbortController(), lostReason: undefined, client: undefined, opening: undefined, releases: [], finished: false, conflict: undefined, decided: false, unlisten: undefined, statements: 0 };
      active = binding;
      last = binding;
      return {
        lease,
        signal: binding.controller.signal,
        get lost() {
          return binding.lostReason !== undefined;
        },
        get conflict() {
          return binding.conflict;
        },
        get decided() {
          return binding.decided;
        },
        markLost: (reason) => loseLease(binding, reason),
        async commit(outcome) {
          try {
            const runner = await transaction(binding);
            await finishLeasedStep(runner, lease, { ...outcome, decided: binding.decided });
            // The controller's session lease, which a plain host may have taken over while the queue lease held: the
            // step's writes in this transaction did not check it (its row stays unlocked through the step), so now.
            for (const holder of new Set(binding.releases)) {
              const token = sessionLeases.get(lease.sid, holder);
              if (token !== undefined) await requireSessionLease(runner, lease.sid, holder, token);
            }
          } catch (error) {
            await finish(binding, false);
            throw commitFailure(error, lease.sid);
          }
          await finish(binding, true).catch((error: unknown) => {
            throw commitFailure(error, lease.sid);
          });
        },
        rollback: () => finish(binding, false),
        keepAlive() {
          const client = binding.client?.client;
          // A failure here (a transaction a failed statement aborted, a connection already cut) is the step's own
          // to report; the ping only resets the server's idle timer. Not while a statement of the step runs: the
          // transaction is busy then, and a second query on the client would queue behind it (which pg deprecates).
          if (client !== undefined && !binding.finished && binding.statements === 0) client.query('SELECT 1').catch(() => undefined);
        },
        run: (step) => stepOf.run(binding, step),
      };
    },
  };
}
