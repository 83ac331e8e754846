/**
 * The supervised pool of sandbox workers (seed 002 §7, seed 003 §2 "fresh
 * interpreter per turn" and §11.2). Each worker is a child process hosting
 * one isolated-vm isolate, because some runaway allocations abort the whole
 * process whatever the isolate's `memoryLimit`. The worker enforces a run's
 * wall clock while the run is in the isolate; the host enforces it while a
 * tool call is with the host (each call carries what is left of it), the
 * tool-call count, and a backstop for a worker that stops answering. A tool
 * call's wait on a busy host is charged to neither. A worker that dies fails
 * only its current run and is replaced.
 */
import { checkPoolOptions } from './pool-options-check.ts';
import { AsyncLocalStorage } from 'node:async_hooks';
import { toInputJson, validateRequest } from './request-validation.ts';
import { checkpointOf, deathError, fromOutcome, type RunState, type Settlement, type ToolCallScope, withLastCall } from './run-state.ts';
import { poolClosedError } from './pool-closed-error.ts';
import { quotaError, SandboxError } from './sandbox-error.ts';
import { DEFAULT_SANDBOX_LIMITS, resolveSandboxLimits, type SandboxLimits } from './sandbox-limits.ts';
import type { SandboxPool, SandboxPoolOptions, SandboxPoolStats } from './sandbox-pool-types.ts';
import type { SandboxLocalToolCall, SandboxResult, SandboxRunRequest, SandboxUsage } from './sandbox-types.ts';
import { describeExit, SandboxWorker, type WorkerExit } from './sandbox-worker.ts';
import { toolOutcomeJson } from './tool-outcome.ts';
import { defaultWorkerEntry } from './worker-entry.ts';
import { LOCAL_TOOL_EVENT, type ToolCallMessage, type WorkerMessage } from './worker-protocol.ts';

/** Why a settled run's tool calls are aborted (one instance for every run: it carries nothing run-specific; not frozen, so a tool annotating it does not throw). */
const RUN_SETTLED = new DOMException('the sandbox run has ended', 'AbortError');

const MB = 1024 * 1024;
/** Default bound on a run's wait for a worker (`SandboxPoolOptions.maxQueueMs`). */
const DEFAULT_MAX_QUEUE_MS = 120_000;
const MAX_TIMER_MS = 2_147_483_647;
/** A backstop timer firing this much later than due means the host was stalled, reading no message meanwhile. */
const STALLED_TIMER_MS = 50;
/** After a backstop that fired late, how soon it looks again (the host reads what waited first); that look decides. */
const STALL_RECHECK_MS = 100;
/** The least `backstopGraceMs` by default (see `SandboxPoolOptions`). */
const MIN_BACKSTOP_GRACE_MS = 1_000;
/** Creates a pool of sandbox worker processes; workers start at the first run (or `warmup()`). */
export function createSandboxPool(options: SandboxPoolOptions = {}): SandboxPool {
  checkPoolOptions(options);
  const size = options.workers ?? 2;
  if (!Number.isInteger(size) || size < 1) throw new SandboxError('SANDBOX_INVALID_REQUEST', `workers must be a positive integer, got ${String(size)}`);
  const defaults = resolveSandboxLimits(options.limits, DEFAULT_SANDBOX_LIMITS);
  const maxRunsPerWorker = options.maxRunsPerWorker ?? 10_000;
  const maxWorkerRssBytes = (options.maxWorkerRssMb ?? 1_024) * MB;
  const cancelGraceMs = options.cancelGraceMs ?? 1_000;
  const maxQueueMs = options.maxQueueMs ?? DEFAULT_MAX_QUEUE_MS;
  // A timer cannot wait longer than 2^31 - 1 ms (Node fires a longer one at once).
  if (!(maxQueueMs > 0 && maxQueueMs <= MAX_TIMER_MS)) throw new SandboxError('SANDBOX_INVALID_REQUEST', `maxQueueMs must be a number of ms from 1 to ${MAX_TIMER_MS}, got ${String(maxQueueMs)}`);
  if (options.backstopGraceMs !== undefined && !(options.backstopGraceMs >= 0 && options.backstopGraceMs <= MAX_TIMER_MS)) {
    throw new SandboxError('SANDBOX_INVALID_REQUEST', `backstopGraceMs must be a number of ms from 0 to ${MAX_TIMER_MS}, got ${String(options.backstopGraceMs)}`);
  }
  const backstopGrace = (limits: SandboxLimits): number => options.backstopGraceMs ?? Math.max(MIN_BACKSTOP_GRACE_MS, limits.wallMs);
  const maxRuntimes = options.maxRuntimesPerWorker ?? 16;
  const maxNestedWorkers = options.maxNestedWorkers ?? 4 * size;
  if (!Number.isInteger(maxNestedWorkers) || maxNestedWorkers < 0) throw new SandboxError('SANDBOX_INVALID_REQUEST', `maxNestedWorkers must be an integer >= 0, got ${String(maxNestedWorkers)}`);
  const entry = options.workerEntry ?? defaultWorkerEntry();
  const workerEnvironment: Record<string, string> = { ASKLOOP_SANDBOX_MEMORY_MB: String(defaults.memoryMb) };
  if (options.memoryWatchdog?.factor !== undefined) workerEnvironment.ASKLOOP_SANDBOX_RSS_FACTOR = String(options.memoryWatchdog.factor);
  if (options.memoryWatchdog?.floorMb !== undefined) workerEnvironment.ASKLOOP_SANDBOX_RSS_FLOOR_MB = String(options.memoryWatchdog.floorMb);

  const workers = new Set<SandboxWorker>();
  const retiring = new WeakSet<SandboxWorker>();
  const runs = new Map<number, RunState>();
  const queue: RunState[] = [];
  let nextRunId = 1;
  let nextWorkerId = 1;
  let settledRuns = 0;
  let workersStarted = 0;
  let workerDeaths = 0;
  let closed = false;
  let closing: Promise<void> | undefined;
  /** The tool call whose handler is running: a run started inside it, while it is open, is nested in its run. */
  const inToolCall = new AsyncLocalStorage<ToolCallScope>();
  /** Runs in a tool call during which they started nested runs; each lets the pool run one worker more (up to `maxNestedWorkers`). */
  let lending = 0;
  /**
   * How many workers the pool may run now: `workers` for runs that are not
   * nested, and one more for each run whose worker waits on its nested runs.
   */
  const capacity = (): number => size + Math.min(maxNestedWorkers, lending);

  const events = { message: onWorkerMessage, exit: onWorkerExit };

  function spawn(): SandboxWorker {
    // Outside any tool call's scope: the worker's handles would otherwise keep that run (and all it holds) reachable.
    const worker = inToolCall.exit(() => new SandboxWorker(nextWorkerId++, entry, workerEnvironment, events));
    workers.add(worker);
    workersStarted += 1;
    return worker;
  }

  /** Not dead nor being retired (a killed worker stays in `workers` until it has exited). */
  const isLive = (worker: SandboxWorker): boolean => !worker.isDead && !retiring.has(worker);
  /** Live, started and without a run. */
  const isIdle = (worker: SandboxWorker): boolean => worker.isReady && isLive(worker) && worker.activeRunId === undefined;

  function liveWorkers(): number {
    let live = 0;
    for (const worker of workers) if (isLive(worker)) live += 1;
    return live;
  }

  /** Stops a worker the pool no longer wants (an expected exit, not a death). */
  function retire(worker: SandboxWorker): void {
    retiring.add(worker);
    worker.kill();
  }

  /** Workers held by runs that are not nested: at most `workers` of them, the rest are for nested runs. */
  function heldByOuterRuns(): number {
    let held = 0;
    for (const worker of workers) {
      const run = worker.activeRunId === undefined ? undefined : runs.get(worker.activeRunId);
      if (run !== undefined && run.parent === undefined) held += 1;
    }
    return held;
  }

  /** Stops idle workers beyond what the pool may run now (started for nested runs that are over). */
  function trimIdleWorkers(): void {
    if (queue.length > 0) return;
    for (const worker of workers) {
      if (liveWorkers() <= capacity()) return;
      if (isIdle(worker)) retire(worker);
    }
  }

  function idleWorker(): SandboxWorker | undefined {
    for (const worker of workers) if (isIdle(worker)) return worker;
    return undefined;
  }

  function pump(): void {
    while (!closed && queue.length > 0) {
      // Nested runs come first in the queue; a run that is not nested waits while such runs hold `workers` workers.
      if ((queue[0] as RunState).parent === undefined && heldByOuterRuns() >= size) return;
      const worker = idleWorker() ?? (liveWorkers() < capacity() ? spawn() : undefined);
      if (worker === undefined) return;
      dispatch(worker, queue.shift() as RunState);
    }
  }

  function dispatch(worker: SandboxWorker, run: RunState): void {
    worker.activeRunId = run.id;
    worker.setBusy(true);
    run.worker = worker;
    worker.ready.then(
      () => {
        if (run.worker !== worker) return; // taken over by a worker that was ready first
        if (run.settled) return release(worker);
        if (worker.isDead) return; // onWorkerExit requeues the run
        send(worker, run);
      },
      () => {
        // onWorkerExit handles a worker that died while starting.
      },
    );
  }

  function send(worker: SandboxWorker, run: RunState): void {
    clearTimeout(run.timer);
    const { runtime } = run.request;
    const known = worker.runtimes.get(runtime.id);
    worker.runtimes.delete(runtime.id);
    worker.runtimes.set(runtime.id, runtime.source);
    const evict: string[] = [];
    for (const id of worker.runtimes.keys()) {
      if (worker.runtimes.size - evict.length <= maxRuntimes) break;
      evict.push(id);
    }
    for (const id of evict) worker.runtimes.delete(id);
    run.sent = true;
    // The wall clock starts here, when a worker takes the run: time queued behind other runs is not the run's.
    run.dispatchedAt = performance.now();
    run.clockLeftMs = run.limits.wallMs;
    run.clockSince = run.dispatchedAt;
    armBackstop(run);
    worker.send({
      type: 'run',
      runId: run.id,
      runtimeId: runtime.id,
      ...(known === runtime.source ? {} : { runtimeSource: runtime.source }),
      entry: run.request.entry,
      inputJson: run.inputJson,
      limits: run.limits,
      ...(evict.length > 0 ? { evict } : {}),
      ...(run.request.localTools === undefined ? {} : { localTools: run.request.localTools }),
    });
    // After the send, so the worker starts while the host sets up whatever it bounds by the run's start (a turn's tools).
    try {
      failOnRejection(run, run.request.onStart?.());
    } catch (error) {
      settle(run, { reject: error });
    }
  }

  function release(worker: SandboxWorker): void {
    worker.activeRunId = undefined;
    if (worker.isDead) return;
    // A run waiting for a worker that is still starting (100–200 ms) moves to this warm one.
    if (queue.length === 0) {
      for (const state of runs.values()) {
        const waitingOn = state.worker;
        if (state.sent || waitingOn === undefined || waitingOn.isReady) continue;
        waitingOn.activeRunId = undefined;
        return dispatch(worker, state);
      }
    }
    worker.setBusy(false);
    // Workers started while runs waited on nested ones, and no longer needed, stop (this one or another idle one).
    trimIdleWorkers();
    pump();
  }

  function onWorkerMessage(worker: SandboxWorker, message: WorkerMessage): void {
    if (message.type === 'ready') {
      if (worker.activeRunId === undefined) release(worker);
      return;
    }
    const run = runs.get(message.runId);
    // Events made before this message ride in it; they come first, as if sent before it.
    if ('events' in message && message.events !== undefined) deliverEvents(run, message.events);
    switch (message.type) {
      case 'started':
        if (run !== undefined && worker.activeRunId === run.id) run.started = true;
        return;
      case 'tool-call':
        if (run !== undefined && !run.settled) {
          run.lastCall = checkpointOf(message.checkpoint)?.checkpoint ?? run.lastCall;
          void callTool(worker, run, message);
        }
        return;
      case 'events':
        return; // delivered above
      case 'memory-exceeded':
        if (run !== undefined) {
          const mib = Math.round(message.rssBytes / MB);
          const what = `the run's memory grew past the isolate limit (worker at ${mib} MiB resident)`;
          settle(run, { ok: false, error: quotaError('SANDBOX_MEMORY', { name: 'memoryMb', value: run.limits.memoryMb }, what, checkpointOf(message.checkpoint)?.checkpoint) });
        }
        worker.kill();
        return;
      case 'done':
        if (worker.activeRunId !== message.runId) return;
        worker.runs += 1;
        // The worker finished the run itself: settling must not send it a `cancel` (an IPC message and a timer per run).
        worker.activeRunId = undefined;
        if (run !== undefined) settle(run, fromOutcome(message.outcome, message));
        if (worker.runs >= maxRunsPerWorker || message.rssBytes > maxWorkerRssBytes) {
          retire(worker);
          return;
        }
        release(worker);
        return;
    }
  }

  function onWorkerExit(worker: SandboxWorker, exit: WorkerExit): void {
    workers.delete(worker);
    const expected = retiring.has(worker) || closed;
    if (!expected) workerDeaths += 1;
    const run = worker.activeRunId === undefined ? undefined : runs.get(worker.activeRunId);
    worker.activeRunId = undefined;
    if (run !== undefined && !run.settled) {
      // 'close' comes after every message the worker sent, so a run without `started` never ran there.
      if (!run.started) {
        run.startAttempts += 1;
        if (run.startAttempts >= 3) {
          const detail = exit.stderrTail.trim().split('\n').slice(-3).join(' | ');
          settle(run, { reject: new SandboxError('SANDBOX_WORKER_START_FAILED', `sandbox workers died before they could take the run (${describeExit(exit)}): ${detail}`) });
        } else {
          clearTimeout(run.timer);
          run.sent = false;
          run.dispatchedAt = undefined;
          run.worker = undefined;
          armQueueTimer(run);
          // First again, among the runs of its kind (nested runs stay ahead of the rest).
          queue.splice(run.parent === undefined ? firstOuterIndex() : 0, 0, run);
        }
      } else {
        settle(run, { ok: false, error: deathError(exit, run.limits) });
      }
    }
    if (closed) return;
    // Keep the pool warm, but do not respawn in a loop when workers cannot start at all.
    if (worker.isReady && liveWorkers() < size) spawn();
    pump();
  }

  async function callTool(worker: SandboxWorker, run: RunState, call: ToolCallMessage): Promise<void> {
    const { callId, name } = call;
    const index = run.toolCalls;
    run.toolCalls += 1;
    if (run.toolCalls > run.limits.maxToolCalls) {
      settle(run, { ok: false, error: quotaError('SANDBOX_TOOL_CALL_LIMIT', { name: 'maxToolCalls', value: run.limits.maxToolCalls }, `the run made more tool calls than allowed (call to ${name})`) });
      return;
    }
    const startedAt = performance.now();
    // The worker's clock stopped at the call: until the result the host holds what is left of it, and the backstop
    // waits. A worker that does not say what is left (a custom or older one) gets what the host reckons is left.
    clearTimeout(run.timer);
    const leftMs = typeof call.remainingMs === 'number' ? Math.min(call.remainingMs, run.limits.wallMs) : run.clockLeftMs - (startedAt - run.clockSince);
    clearTimeout(run.toolTimers.get(callId));
    const toolTimer = setTimeout(() => {
      settle(run, { ok: false, error: quotaError('SANDBOX_TIMEOUT', { name: 'wallMs', value: run.limits.wallMs }, `the run's call to ${name} outlasted what was left of its wall-clock limit`) });
    }, Math.min(MAX_TIMER_MS, Math.max(0, leftMs)));
    run.toolTimers.set(callId, toolTimer);
    // Runs the handler starts while the call is open (an `ask`'s child turns) are nested in this run: see `enqueue`.
    const scope: ToolCallScope = { run, open: true };
    let outcomeJson: string;
    try {
      // In the caller's context (its async-local state, as when it called run), then this call's scope for nesting.
      outcomeJson = await run.inCallerContext(() =>
        inToolCall.run(scope, () => toolOutcomeJson(run.request.onToolCall, name, call.argsJson, { signal: run.toolAbort.signal, index, remainingMs: Math.max(0, leftMs) }, run.toolData)),
      );
    } finally {
      scope.open = false;
      stopLending(run);
    }
    clearTimeout(toolTimer);
    run.toolTimers.delete(callId);
    if (run.settled || worker.activeRunId !== run.id) return;
    const now = performance.now();
    const toolMs = now - startedAt;
    run.clockLeftMs = leftMs - toolMs;
    run.clockSince = now;
    worker.send({ type: 'tool-result', runId: run.id, callId, outcomeJson, toolMs, toolDataLeft: run.toolData.left });
    // The worker's clock runs again once no call of the run is open (as the worker's own does); until then each
    // open call's timer bounds the run.
    if (run.toolTimers.size === 0) armBackstop(run);
  }

  /**
   * The backstop for a worker that stops answering (its own clock ends a run
   * that overruns, and the host times tool calls): armed whenever the
   * worker's clock runs, from the host's point of view — at dispatch and at
   * each tool result — for what is left of `wallMs` plus the grace. A message
   * the worker sends while the host is stalled is read late, which only
   * arms it later. When it fires late itself, the host was stalled at that
   * moment and the worker's messages may be waiting unread: it looks once
   * more, `STALL_RECHECK_MS` later, and that look decides.
   */
  function armBackstop(run: RunState): void {
    clearTimeout(run.timer);
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, run.clockLeftMs) + backstopGrace(run.limits));
    run.backstopDue = performance.now() + delay;
    run.backstopRechecking = false;
    run.timer = setTimeout(() => onBackstop(run), delay);
  }

  function onBackstop(run: RunState): void {
    if (!run.backstopRechecking && performance.now() - run.backstopDue > STALLED_TIMER_MS) {
      run.backstopRechecking = true;
      run.timer = setTimeout(() => onBackstop(run), STALL_RECHECK_MS);
      return;
    }
    settle(run, {
      ok: false,
      error: quotaError('SANDBOX_TIMEOUT', { name: 'wallMs', value: run.limits.wallMs }, `the sandbox worker did not end the run within its wall-clock limit and ${Math.round(backstopGrace(run.limits))} ms more`),
    });
  }

  /**
   * Queues a new run. One started inside another run's open tool call (an
   * `ask`'s child turn) is nested in it: that run's worker waits on it. So
   * nested runs go before every run that is not nested; runs that are not
   * nested hold at most `workers` workers; and for as long as the tool call
   * lasts (the child loop's model calls between its turns included), its run
   * lets the pool run one worker more, up to `maxNestedWorkers`. Else runs
   * waiting on their nested runs could hold every worker, with the nested runs
   * queued behind them for good. With `maxNestedWorkers` at least `workers`
   * × the depth of nesting (`ask` inside `ask`…), nested runs always find one.
   */
  function enqueue(state: RunState): void {
    const scope = inToolCall.getStore();
    if (scope === undefined || !scope.open || scope.run.settled) {
      queue.push(state);
      return;
    }
    state.parent = scope.run;
    if (!scope.run.lending) {
      scope.run.lending = true;
      lending += 1;
    }
    queue.splice(firstOuterIndex(), 0, state);
  }

  /** Where the first queued run that is not nested is (the queue's length when there is none). */
  function firstOuterIndex(): number {
    const index = queue.findIndex((queued) => queued.parent === undefined);
    return index < 0 ? queue.length : index;
  }

  /** The run's tool call is over (or the run settled): it no longer lends its worker to nested runs. */
  function stopLending(run: RunState): void {
    if (!run.lending) return;
    run.lending = false;
    lending -= 1;
    trimIdleWorkers();
  }

  /** Bounds the run's wait for a worker: what is left of `maxQueueMs` since it was enqueued. */
  function armQueueTimer(run: RunState): void {
    const left = Math.max(0, maxQueueMs - (performance.now() - run.enqueuedAt));
    run.timer = setTimeout(() => {
      settle(run, {
        ok: false,
        error: new SandboxError('SANDBOX_QUEUE_TIMEOUT', `the run waited ${maxQueueMs} ms for a free sandbox worker and never started (pool of ${size}; maxQueueMs = ${maxQueueMs})`),
      });
    }, left);
  }

  /** Delivers a batch of events (kind and payload JSON alternately) in order, until the run settles. */
  function deliverEvents(run: RunState | undefined, events: readonly string[]): void {
    for (let index = 0; index + 1 < events.length && run !== undefined && !run.settled; index += 2) {
      deliverEvent(run, events[index] as string, events[index + 1] as string);
    }
  }

  function deliverEvent(run: RunState, kind: string, payloadJson: string): void {
    if (kind === LOCAL_TOOL_EVENT) return deliverLocalCall(run, payloadJson);
    const handler = run.request.onEvent;
    if (handler === undefined) return;
    try {
      failOnRejection(run, handler(kind, JSON.parse(payloadJson)));
    } catch (error) {
      settle(run, { reject: error });
    }
  }

  /**
   * A call the worker answered itself (`localTools`), in its place among the run's events: counted as a call (its
   * index, the backstop), its arguments and result spent from the tool-data budget, its checkpoint kept as the run's
   * last call's, and told to `onLocalToolCall`.
   */
  function deliverLocalCall(run: RunState, payloadJson: string): void {
    const call = JSON.parse(payloadJson) as SandboxLocalToolCall & { readonly dataChars: number; readonly checkpoint?: unknown };
    run.toolCalls += 1;
    run.toolData.left -= call.dataChars;
    // Where the run was at the call, as a call to the host says it: the fuel of a run stopped from outside later.
    run.lastCall = checkpointOf(call.checkpoint)?.checkpoint ?? run.lastCall;
    try {
      run.request.onLocalToolCall?.({ name: call.name, args: call.args, result: call.result, durationMs: call.durationMs });
    } catch (error) {
      settle(run, { reject: error });
    }
  }

  /** An async `onEvent`/`onStart` that rejects fails its run as one that throws does (unhandled, it ended the host process). */
  function failOnRejection(run: RunState, returned: unknown): void {
    if (returned !== null && typeof returned === 'object' && typeof (returned as PromiseLike<unknown>).then === 'function') {
      (returned as PromiseLike<unknown>).then(undefined, (error: unknown) => settle(run, { reject: error }));
    }
  }

  function settle(run: RunState, settlement: Settlement): void {
    if (run.settled) return;
    run.settled = true;
    // Before the call's timer is cleared below: whether the run is in a tool call as it ends (see `withLastCall`).
    const callOpen = run.toolTimers.size > 0;
    settledRuns += 1;
    runs.delete(run.id);
    clearTimeout(run.timer);
    for (const toolTimer of run.toolTimers.values()) clearTimeout(toolTimer);
    run.toolTimers.clear();
    stopLending(run);
    if (run.onAbort !== undefined) run.request.signal?.removeEventListener('abort', run.onAbort);
    // One reason for every run: `abort()` without one builds a DOMException, stack trace included, per run.
    run.toolAbort.abort(RUN_SETTLED);
    const queued = queue.indexOf(run);
    if (queued >= 0) queue.splice(queued, 1);
    stopWorkerRun(run);
    if ('reject' in settlement) {
      run.reject(settlement.reject);
      return;
    }
    const now = performance.now();
    const done = settlement.done;
    const usage: SandboxUsage = {
      wallMs: run.dispatchedAt === undefined ? 0 : now - run.dispatchedAt,
      queueMs: (run.dispatchedAt ?? now) - run.enqueuedAt,
      toolCalls: run.toolCalls,
      ...(done !== undefined && done.cpuMs > 0 ? { cpuMs: done.cpuMs } : {}),
      ...(done !== undefined && done.heapBytes > 0 ? { heapBytes: done.heapBytes } : {}),
    };
    if (settlement.ok) {
      let value: unknown;
      try {
        value = JSON.parse(settlement.valueJson);
      } catch (error) {
        run.reject(error);
        return;
      }
      run.resolve({ ok: true, value, usage });
    } else {
      run.resolve({ ok: false, error: withLastCall(settlement.error, run.lastCall, callOpen), usage });
    }
  }

  /** After the host settled a run the worker is still on: cancel it there, and kill the worker if it does not confirm in time. */
  function stopWorkerRun(run: RunState): void {
    const worker = run.worker;
    if (worker === undefined || worker.activeRunId !== run.id || !run.sent || worker.isDead) return;
    worker.send({ type: 'cancel', runId: run.id });
    const grace = setTimeout(() => {
      if (worker.activeRunId === run.id) worker.kill();
    }, cancelGraceMs);
    grace.unref();
  }

  function run<Value>(request: SandboxRunRequest): Promise<SandboxResult<Value>> {
    if (closed) return Promise.reject(poolClosedError(false));
    let limits: SandboxLimits;
    let inputJson: string;
    try {
      validateRequest(request);
      limits = resolveSandboxLimits(request.limits, defaults);
      inputJson = toInputJson(request.input);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<SandboxResult<Value>>((resolve, reject) => {
      const state: RunState = {
        id: nextRunId++,
        request,
        limits,
        inputJson,
        enqueuedAt: performance.now(),
        toolAbort: new AbortController(),
        inCallerContext: AsyncLocalStorage.snapshot(),
        resolve: resolve as (result: SandboxResult<unknown>) => void,
        reject,
        worker: undefined,
        sent: false,
        started: false,
        dispatchedAt: undefined,
        toolCalls: 0,
        toolData: { left: limits.maxToolDataChars, limit: limits.maxToolDataChars },
        startAttempts: 0,
        settled: false,
        timer: undefined,
        clockLeftMs: limits.wallMs,
        clockSince: 0,
        backstopDue: 0,
        backstopRechecking: false,
        toolTimers: new Map(),
        onAbort: undefined,
        parent: undefined,
        lending: false,
        lastCall: undefined,
      };
      runs.set(state.id, state);
      const aborted = () => settle(state, { ok: false, error: new SandboxError('SANDBOX_ABORTED', 'the run was aborted by the host') });
      if (request.signal?.aborted === true) return aborted();
      if (request.signal !== undefined) {
        state.onAbort = aborted;
        request.signal.addEventListener('abort', aborted, { once: true });
      }
      armQueueTimer(state);
      enqueue(state);
      pump();
    });
  }

  async function warmup(): Promise<void> {
    if (closed) throw poolClosedError(false);
    while (liveWorkers() < size) spawn();
    try {
      await Promise.all([...workers].filter(isLive).map((worker) => worker.ready));
    } catch (error) {
      throw new SandboxError('SANDBOX_WORKER_START_FAILED', error instanceof Error ? error.message : String(error), { cause: error });
    }
  }

  function stats(): SandboxPoolStats {
    let busy = 0;
    for (const worker of workers) if (worker.activeRunId !== undefined) busy += 1;
    return { size, workers: workers.size, busy, queued: queue.length, lending, runs: settledRuns, workersStarted, workerDeaths, closed };
  }

  function close(): Promise<void> {
    if (closing !== undefined) return closing;
    closed = true;
    for (const state of [...runs.values()]) settle(state, { ok: false, error: poolClosedError(true) });
    const ending = [...workers].map((worker) => {
      // Keep the host alive until every worker has really exited.
      worker.setBusy(true);
      const ended = worker.closed();
      worker.kill();
      return ended;
    });
    closing = Promise.all(ending).then(() => undefined);
    return closing;
  }

  return { limits: defaults, run, warmup, stats, close };
}
