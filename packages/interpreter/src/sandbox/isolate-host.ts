/**
 * The worker side of the sandbox: one long-lived isolate, a fresh context per
 * run, the runtime bundles compiled once per isolate, and the bridge
 * functions the context sees as `__host`. Runs inside the worker process
 * (`worker-main.ts`), one run at a time.
 *
 * Why a fresh context rather than a fresh isolate per run: a context has its
 * own global object and its own built-ins, so nothing a run creates is
 * reachable from the next one; it costs ~0.3 ms against ~2.5 ms for a new
 * isolate plus recompiling the runtime (measured, README "Sandbox"). The
 * isolate is replaced whenever a run had to be terminated.
 */
import ivm from 'isolated-vm';
import { CHECKPOINT_CELLS, CHECKPOINT_LINE, CHECKPOINT_STEPS } from './checkpoint-memory.ts';
import { AWAIT_SOURCE, BOOTSTRAP_SOURCE, INVOKE_SOURCE, toolReply, type InvokeOutcome } from './isolate-sources.ts';
import { answerLocally, loadedLocalTools } from './local-tool-answers.ts';
import { prepareSecretScan, type SecretScan } from './secret-fingerprints.ts';
import { createReplyMemory, deliverReply, type ReplyMemory } from './tool-reply-memory.ts';
import type { SandboxCheckpoint } from './sandbox-error.ts';
import type { SandboxLimits } from './sandbox-limits.ts';
import type { SandboxLocalTools } from './sandbox-types.ts';
import { LOCAL_TOOL_EVENT, type DoneMessage, type RunMessage, type WorkerOutcome } from './worker-protocol.ts';

/** What the isolate host needs from the worker's IPC side. */
export interface IsolateHostChannel {
  /**
   * The entry has been called. Sent as the isolate's thread starts on it, so
   * the acknowledgement is written while the script runs (off the critical
   * path) yet long before a runaway could kill the process.
   */
  started(runId: number): void;
  /** `checkpoint`: where the runtime said the run was as it made the call (the evaluator writes it before each call). */
  toolCall(runId: number, callId: number, name: string, argsJson: string, remainingMs: number, checkpoint: SandboxCheckpoint | undefined): void;
  event(runId: number, kind: string, payloadJson: string): void;
  /** The RSS watchdog fired; `checkpoint` is where the runtime last said the run was. */
  memoryExceeded(runId: number, rssBytes: number, checkpoint: SandboxCheckpoint | undefined): void;
}

interface CompiledRuntime {
  readonly source: string;
  cachedData: ivm.ExternalCopy<ArrayBuffer> | undefined;
}

interface ActiveRun {
  readonly runId: number;
  readonly limits: SandboxLimits;
  /** Calls waiting for the host: when each was sent, and what answers the isolate (a `toolReply`). */
  readonly pendingTools: Map<number, { readonly sentAt: number; readonly resolve: (reply: string) => void }>;
  /** The context's reply memory, where a call's answer is written for the waiting isolate. */
  reply: ReplyMemory | undefined;
  /** An answer too long for the reply memory, until the isolate takes it (`#takeReply`). */
  untakenReply: string | undefined;
  /** The run's clock (see `#startClock`): what is left of `wallMs`, and since when it has been running down. */
  leftMs: number;
  clockSince: number;
  clockTimer: NodeJS.Timeout | undefined;
  nextCallId: number;
  outputBytes: number;
  failure: WorkerOutcome | undefined;
  /** The token of the context the run executes in; bridge calls from other contexts are ignored. */
  contextToken: number;
  /** The context's `__host.checkpoint`, seen from here: still readable when the isolate is gone. */
  checkpoint: Float64Array | undefined;
  /** The tools this worker answers itself in the run (`local-tool-answers.ts`). */
  readonly local: SandboxLocalTools | undefined;
  /** The host's secrets as fingerprints, ready to scan a result for (`secret-fingerprints.ts`). */
  readonly secrets: SecretScan | undefined;
  /** Calls the run has made, answered here or sent to the host: none is answered here past `maxToolCalls`. */
  callsMade: number;
  /** What is left of the run's `maxToolDataChars`, as the host last said (each call's `tool-result`) less what was answered here since. */
  toolDataLeft: number;
}

/** A fresh context, the token its `__host` passes on every call, and the memory it shares as `__host.checkpoint`. */
interface PreparedContext {
  readonly context: ivm.Context;
  readonly token: number;
  readonly checkpoint: Float64Array;
  readonly reply: ReplyMemory;
}

/** `compileScript` with `produceCachedData` sets this (isolated-vm README, "CachedDataOptions"); its typings omit it. */
type ScriptWithCache = ivm.Script & { readonly cachedData?: ivm.ExternalCopy<ArrayBuffer> };

const MB = 1024 * 1024;
/** The longest a Node timer waits (a longer delay fires at once). */
const MAX_TIMER_MS = 2_147_483_647;
/** What a pending tool call gets when its run is stopped, so the isolate thread is released before disposal. */
const STOPPED_TOOL_REPLY = toolReply(0, JSON.stringify({ ok: false, error: { code: 'SANDBOX_ABORTED', message: 'the run was stopped' } }));

/** Owns the worker's isolate and runs requests in it. */
export class IsolateHost {
  readonly #channel: IsolateHostChannel;
  readonly #runtimes = new Map<string, CompiledRuntime>();
  #isolate: ivm.Isolate | undefined;
  #isolateMemoryMb = 0;
  #scripts = new Map<string, ivm.Script>();
  #active: ActiveRun | undefined;
  #spare: (PreparedContext & { readonly isolate: ivm.Isolate; readonly runtimeId: string | undefined }) | undefined;
  #nextContextToken = 1;
  #lastRuntimeId: string | undefined;
  #lastWallMs = 5_000;
  /**
   * The bridge functions every context's `__host` closes over. They belong
   * to this (the worker's main) isolate and act on whichever run is active.
   */
  readonly #callToolReference = new ivm.Reference((token: number, name: string, argsJson: string) => this.#callTool(token, name, argsJson));
  readonly #eventReference = new ivm.Reference((token: number, kind: string, payloadJson: string) => this.#event(token, kind, payloadJson));
  readonly #takeReplyReference = new ivm.Reference((token: number) => this.#takeReply(token));
  /** RSS headroom over the run's starting RSS before the watchdog fires, per MiB of `memoryMb`. */
  readonly #rssFactor: number;
  readonly #rssFloorMb: number;

  constructor(channel: IsolateHostChannel, options: { rssFactor?: number; rssFloorMb?: number } = {}) {
    this.#channel = channel;
    this.#rssFactor = options.rssFactor ?? 4;
    this.#rssFloorMb = options.rssFloorMb ?? 256;
  }

  /** Creates the isolate and a spare context ahead of the first run (so `ready` means warm). */
  warm(memoryMb: number): void {
    this.#isolateFor(memoryMb);
    this.prepare();
  }

  /**
   * Makes the next run's context now, while the worker is idle: creating a
   * context is most of a run's cost (~0.3 ms), so it is kept off the
   * critical path. The spare is still fresh — no run has touched it — and
   * gets the runtime of the last run preloaded when one is known.
   */
  prepare(): void {
    const isolate = this.#isolate;
    if (this.#spare !== undefined || this.#active !== undefined || isolate === undefined || isolate.isDisposed) return;
    let prepared: PreparedContext | undefined;
    try {
      prepared = this.#bootstrappedContext(isolate);
      const runtimeId = this.#lastRuntimeId !== undefined && this.#runtimes.has(this.#lastRuntimeId) ? this.#lastRuntimeId : undefined;
      if (runtimeId !== undefined) this.#scriptFor(isolate, runtimeId).runSync(prepared.context, { timeout: topLevelTimeout(this.#lastWallMs) });
      this.#spare = { ...prepared, isolate, runtimeId };
    } catch {
      // The run will make its own context and report whatever failed.
      releaseQuietly(prepared?.context);
    }
  }

  /** Runs one request to its end; never throws. */
  async run(message: RunMessage): Promise<DoneMessage> {
    if (message.runtimeSource !== undefined) this.#storeRuntime(message.runtimeId, message.runtimeSource);
    const run: ActiveRun = {
      runId: message.runId,
      limits: message.limits,
      pendingTools: new Map(),
      leftMs: message.limits.wallMs,
      clockSince: 0,
      clockTimer: undefined,
      nextCallId: 0,
      outputBytes: 0,
      failure: undefined,
      contextToken: -1,
      checkpoint: undefined,
      reply: undefined,
      untakenReply: undefined,
      local: message.localTools,
      secrets: message.localTools?.secrets === undefined ? undefined : prepareSecretScan(message.localTools.secrets),
      callsMade: 0,
      toolDataLeft: message.limits.maxToolDataChars,
    };
    // Loaded the first time a run names it, without waiting: until then this run's calls go to the host.
    if (message.localTools !== undefined) loadedLocalTools(message.localTools.module);
    this.#active = run;
    this.#startClock(run);
    const isolate = this.#isolateFor(message.limits.memoryMb);
    const cpuStart = isolate.cpuTime;
    const watchdog = this.#startWatchdog(run);
    let heapBytes = 0;
    let outcome: WorkerOutcome;
    let context: ivm.Context | undefined;
    this.#lastRuntimeId = message.runtimeId;
    this.#lastWallMs = message.limits.wallMs;
    try {
      const prepared = this.#contextFor(isolate, message.runtimeId, message.limits.wallMs);
      context = prepared.context;
      run.contextToken = prepared.token;
      run.checkpoint = prepared.checkpoint;
      run.reply = prepared.reply;
      // No isolated-vm `timeout` here: it would count the time a tool call waits on a busy host. The run's clock does.
      const invoking = context.evalClosure(INVOKE_SOURCE, [message.entry, message.inputJson], { result: { copy: true } });
      this.#channel.started(message.runId);
      let invoked = (await invoking) as InvokeOutcome;
      if (invoked.status === 'pending') {
        invoked = (await context.evalClosure(AWAIT_SOURCE, [], { result: { copy: true, promise: true } })) as InvokeOutcome;
      }
      outcome = this.#toOutcome(run, invoked, message.entry);
      heapBytes = isolate.getHeapStatisticsSync().used_heap_size;
    } catch (error) {
      outcome = this.#failureOf(run, error);
    } finally {
      clearInterval(watchdog);
      clearTimeout(run.clockTimer);
      this.#active = undefined;
    }
    const cpuMs = isolate.isDisposed ? 0 : Number(isolate.cpuTime - cpuStart) / 1e6;
    releaseQuietly(context);
    if (isolate.isDisposed) this.#dropIsolate();
    return { type: 'done', runId: message.runId, outcome: withCheckpoint(run.failure ?? outcome, run.checkpoint), cpuMs, heapBytes, rssBytes: process.memoryUsage.rss() };
  }

  /**
   * Delivers a tool result to the waiting isolate. Of the call's round trip
   * the run is charged `toolMs` (the host's own time on the call); the rest
   * is excused, here and in the isolate's clock.
   */
  toolResult(runId: number, callId: number, outcomeJson: string, toolMs?: number, toolDataLeft?: number): void {
    const run = this.#active;
    if (run === undefined || run.runId !== runId) return;
    const pending = run.pendingTools.get(callId);
    if (pending === undefined) return;
    run.pendingTools.delete(callId);
    // A host that does not say what is left of the budget gets every later call of the run.
    run.toolDataLeft = toolDataLeft ?? 0;
    const roundTripMs = performance.now() - pending.sentAt;
    const chargedMs = toolMs === undefined || !(toolMs >= 0) ? roundTripMs : Math.min(roundTripMs, toolMs);
    run.leftMs -= chargedMs;
    pending.resolve(toolReply(roundTripMs - chargedMs, outcomeJson));
    if (run.pendingTools.size === 0) this.#startClock(run);
  }

  /** Stops the active run now: releases pending tool calls and disposes the isolate, which terminates the script. */
  cancel(runId: number, failure?: WorkerOutcome): void {
    const run = this.#active;
    if (run === undefined || run.runId !== runId) return;
    run.failure ??= failure ?? { ok: false, code: 'SANDBOX_ABORTED', message: 'the run was cancelled by the host' };
    clearTimeout(run.clockTimer);
    for (const pending of run.pendingTools.values()) pending.resolve(STOPPED_TOOL_REPLY);
    run.pendingTools.clear();
    const isolate = this.#isolate;
    this.#dropIsolate();
    // Disposal terminates execution (a wait on the reply memory too); a call answered above is woken first.
    setImmediate(() => {
      if (!isolate?.isDisposed) isolate?.dispose();
    });
  }

  /** A fresh context with `__host` installed; nothing else has run in it. */
  #bootstrappedContext(isolate: ivm.Isolate): PreparedContext {
    const context = isolate.createContextSync();
    const token = this.#nextContextToken++;
    // Shared, not copied (isolated-vm README, "ExternalCopy"): the context's writes land here, and outlive its isolate.
    const shared = new SharedArrayBuffer(CHECKPOINT_CELLS * Float64Array.BYTES_PER_ELEMENT);
    const reply = createReplyMemory();
    context.evalClosureSync(BOOTSTRAP_SOURCE, [
      this.#callToolReference,
      this.#eventReference,
      token,
      new ivm.ExternalCopy(shared).copyInto({ release: true }),
      new ivm.ExternalCopy(reply.shared).copyInto({ release: true }),
      this.#takeReplyReference,
    ]);
    return { context, token, checkpoint: new Float64Array(shared), reply: reply.memory };
  }

  /** The spare context if it fits this run, else a new one; with the runtime loaded either way. */
  #contextFor(isolate: ivm.Isolate, runtimeId: string, wallMs: number): PreparedContext {
    const spare = this.#spare;
    this.#spare = undefined;
    if (spare !== undefined && spare.isolate === isolate && !isolate.isDisposed && (spare.runtimeId === undefined || spare.runtimeId === runtimeId)) {
      if (spare.runtimeId === undefined) this.#scriptFor(isolate, runtimeId).runSync(spare.context, { timeout: topLevelTimeout(wallMs) });
      return spare;
    }
    releaseQuietly(spare?.context);
    const script = this.#scriptFor(isolate, runtimeId);
    const prepared = this.#bootstrappedContext(isolate);
    // A runtime's top level only defines functions; it runs synchronously, bounded by the wall limit.
    script.runSync(prepared.context, { timeout: topLevelTimeout(wallMs) });
    return prepared;
  }

  /**
   * The isolate's tool call (a synchronous call from its thread): sends it to
   * the host and returns nothing, the isolate then waiting on its reply memory
   * for the answer (`toolResult` writes it there); or returns the answer itself when the call is
   * not made.
   */
  #callTool(token: number, name: string, argsJson: string): string | undefined {
    const run = this.#active;
    // Outside the active run's context (a spare context's top level, a stale context) tools are not available.
    if (run === undefined || run.contextToken !== token || run.failure !== undefined || run.reply === undefined) return STOPPED_TOOL_REPLY;
    run.callsMade += 1;
    const answered = this.#answerLocally(run, name, argsJson);
    if (answered !== undefined) return answered;
    // While the call is with the host the run's clock stops here; the host times the tool against what is left.
    this.#stopClock(run);
    if (run.leftMs <= 0) {
      this.#timeUp(run);
      return STOPPED_TOOL_REPLY;
    }
    const callId = run.nextCallId++;
    const reply = run.reply;
    this.#channel.toolCall(run.runId, callId, name, argsJson, run.leftMs, readCheckpoint(run.checkpoint));
    // After the send: the worker's own time writing the call (its size is the program's doing) is not excused.
    run.pendingTools.set(callId, {
      sentAt: performance.now(),
      resolve: (answer) => {
        if (!deliverReply(reply, answer)) run.untakenReply = answer;
      },
    });
    return undefined;
  }

  /**
   * Answers a call of one of the run's local tools here (`local-tool-answers.ts`) and tells the host in its place
   * among the run's events; undefined when the call goes to the host.
   */
  #answerLocally(run: ActiveRun, name: string, argsJson: string): string | undefined {
    const local = run.local;
    // The call past the backstop goes to the host, which ends the run for it.
    if (local === undefined || run.callsMade > run.limits.maxToolCalls) return undefined;
    const module = loadedLocalTools(local.module);
    if (module === undefined) return undefined;
    // With where the run is, as a call to the host carries it: a run the host stops later is known as of this call.
    const answer = answerLocally(local, module, name, argsJson, { dataLeft: run.toolDataLeft, checkpoint: readCheckpoint(run.checkpoint), secrets: run.secrets });
    if (answer === undefined) return undefined;
    run.toolDataLeft -= answer.dataChars;
    this.#channel.event(run.runId, LOCAL_TOOL_EVENT, answer.eventJson);
    // Nothing waited on a host: no time is excused.
    return toolReply(0, answer.outcomeJson);
  }

  /** Hands the isolate an answer too long for its reply memory (a synchronous call from its thread). */
  #takeReply(token: number): string {
    const run = this.#active;
    const answer = run !== undefined && run.contextToken === token ? run.untakenReply : undefined;
    if (run !== undefined) run.untakenReply = undefined;
    return answer ?? STOPPED_TOOL_REPLY;
  }

  /**
   * The run's clock, which enforces `wallMs` in the worker: it runs down
   * while the run is in the isolate (its context made, its code running) and
   * stops while a tool call is with the host, which charges back only the
   * host's own time on the call (`toolResult`). So time a message waits on a
   * busy host is never the run's; isolated-vm's `timeout` cannot tell it
   * apart and is not used for the entry.
   */
  #startClock(run: ActiveRun): void {
    if (run.failure !== undefined) return;
    if (run.leftMs <= 0) return this.#timeUp(run);
    run.clockSince = performance.now();
    run.clockTimer = setTimeout(() => {
      this.#stopClock(run);
      // A timer may fire a little early, and waits at most MAX_TIMER_MS: run down what is left.
      if (run.leftMs > 0) this.#startClock(run);
      else this.#timeUp(run);
    }, Math.min(MAX_TIMER_MS, Math.ceil(run.leftMs)));
  }

  #stopClock(run: ActiveRun): void {
    if (run.clockTimer === undefined) return;
    clearTimeout(run.clockTimer);
    run.clockTimer = undefined;
    run.leftMs -= performance.now() - run.clockSince;
  }

  /** Ends the run for its wall clock: terminates the isolate (the entry's promise rejects) and reports `SANDBOX_TIMEOUT`. */
  #timeUp(run: ActiveRun): void {
    if (this.#active !== run) return;
    this.cancel(run.runId, wallLimit(run.limits));
  }

  #event(token: number, kind: string, payloadJson: string): void {
    const run = this.#active;
    // Only this worker reports a local answer: a runtime's event of that kind is dropped.
    if (run === undefined || run.contextToken !== token || run.failure !== undefined || kind === LOCAL_TOOL_EVENT) return;
    run.outputBytes += Buffer.byteLength(kind) + Buffer.byteLength(payloadJson);
    if (run.outputBytes > run.limits.maxOutputBytes) {
      this.cancel(run.runId, outputLimit(run.limits, run.outputBytes));
      return;
    }
    this.#channel.event(run.runId, kind, payloadJson);
  }

  #toOutcome(run: ActiveRun, invoked: InvokeOutcome, entry: string): WorkerOutcome {
    switch (invoked.status) {
      case 'ok': {
        const bytes = run.outputBytes + Buffer.byteLength(invoked.json);
        if (bytes > run.limits.maxOutputBytes) return outputLimit(run.limits, bytes);
        return { ok: true, valueJson: invoked.json };
      }
      case 'pending':
        return { ok: false, code: 'SANDBOX_INTERNAL', message: 'the entry stayed pending after it was awaited' };
      case 'no-entry':
        return { ok: false, code: 'SANDBOX_ENTRY_NOT_FOUND', message: `the runtime defines no global function ${JSON.stringify(entry)}` };
      case 'not-json':
        return { ok: false, code: 'SANDBOX_RESULT_NOT_JSON', message: `the entry's result is not JSON data: ${invoked.message}` };
      case 'thrown':
        if (invoked.name === 'RangeError' && /call stack/i.test(invoked.message)) {
          return { ok: false, code: 'SANDBOX_STACK_OVERFLOW', message: `the runtime overflowed the isolate's call stack: ${invoked.message}` };
        }
        if (invoked.name === 'RangeError' && /invalid (string|array|typed array) length|allocation failed/i.test(invoked.message)) {
          // V8 refused an allocation past one of its size limits before the heap limit was reached.
          return memoryLimit(run.limits, `the runtime's allocation was refused: ${invoked.message}`);
        }
        return { ok: false, code: 'SANDBOX_RUNTIME_ERROR', message: `the runtime threw ${invoked.name}: ${invoked.message}` };
    }
  }

  #failureOf(run: ActiveRun, error: unknown): WorkerOutcome {
    const message = error instanceof Error ? error.message : String(error);
    const { limits } = run;
    if (/memory limit/i.test(message) || /allocation failed/i.test(message)) {
      return memoryLimit(limits, 'the isolate ran out of memory');
    }
    // isolated-vm's own timeout, on the runtime bundle's top level.
    if (/timed out/i.test(message)) return wallLimit(limits);
    if (/call stack/i.test(message)) return { ok: false, code: 'SANDBOX_STACK_OVERFLOW', message: `the runtime overflowed the isolate's call stack: ${message}` };
    if (run.failure !== undefined) return run.failure;
    if (/disposed/i.test(message)) return { ok: false, code: 'SANDBOX_INTERNAL', message: `the isolate was lost during the run: ${message}` };
    // The runtime bundle's top level threw.
    const name = error instanceof Error ? error.name : 'Error';
    return { ok: false, code: 'SANDBOX_RUNTIME_ERROR', message: `the runtime bundle failed: ${name}: ${message}` };
  }

  #startWatchdog(run: ActiveRun): NodeJS.Timeout {
    const start = process.memoryUsage.rss();
    const ceiling = start + Math.max(this.#rssFactor * run.limits.memoryMb, this.#rssFloorMb) * MB;
    const timer = setInterval(() => {
      const rss = process.memoryUsage.rss();
      if (rss <= ceiling || run.failure !== undefined) return;
      clearInterval(timer);
      // Some runaways outgrow memoryLimit and end in a V8 abort; the host kills this process rather than wait.
      this.#channel.memoryExceeded(run.runId, rss, readCheckpoint(run.checkpoint));
      // Meanwhile stop the run here too (its clock stops with it).
      this.cancel(run.runId, memoryLimit(run.limits, `the worker's memory grew past the isolate limit (${Math.round(rss / MB)} MiB resident)`));
    }, 20);
    return timer;
  }

  #storeRuntime(id: string, source: string): void {
    const known = this.#runtimes.get(id);
    if (known?.source === source) return;
    this.#dropSpareWith(id);
    known?.cachedData?.release();
    this.#runtimes.set(id, { source, cachedData: undefined });
    this.#scripts.get(id)?.release();
    this.#scripts.delete(id);
  }

  /** Forgets runtimes the host evicted from its record of this worker. */
  evict(ids: readonly string[]): void {
    for (const id of ids) {
      this.#dropSpareWith(id);
      this.#runtimes.get(id)?.cachedData?.release();
      this.#runtimes.delete(id);
      this.#scripts.get(id)?.release();
      this.#scripts.delete(id);
    }
  }

  #scriptFor(isolate: ivm.Isolate, id: string): ivm.Script {
    const cached = this.#scripts.get(id);
    if (cached !== undefined) return cached;
    const runtime = this.#runtimes.get(id);
    if (runtime === undefined) throw new Error(`runtime ${id} was never sent to this worker`);
    // A trailing `undefined` keeps the script's completion value from becoming a Reference that pins each context.
    const code = `${runtime.source}\n;undefined;`;
    const filename = `askloop-runtime:${id}`;
    const script =
      runtime.cachedData === undefined
        ? isolate.compileScriptSync(code, { filename, produceCachedData: true })
        : isolate.compileScriptSync(code, { filename, cachedData: runtime.cachedData });
    if (runtime.cachedData === undefined) runtime.cachedData = (script as ScriptWithCache).cachedData;
    this.#scripts.set(id, script);
    return script;
  }

  #isolateFor(memoryMb: number): ivm.Isolate {
    if (this.#isolate !== undefined && !this.#isolate.isDisposed && this.#isolateMemoryMb === memoryMb) return this.#isolate;
    if (this.#isolate !== undefined && !this.#isolate.isDisposed) this.#isolate.dispose();
    this.#dropIsolate();
    this.#isolate = new ivm.Isolate({ memoryLimit: memoryMb });
    this.#isolateMemoryMb = memoryMb;
    return this.#isolate;
  }

  #dropSpareWith(runtimeId: string): void {
    if (this.#spare?.runtimeId !== runtimeId) return;
    releaseQuietly(this.#spare.context);
    this.#spare = undefined;
  }

  #dropIsolate(): void {
    this.#isolate = undefined;
    this.#scripts = new Map();
    this.#spare = undefined;
  }
}

/**
 * A failed run's outcome with where its runtime last said it was, when it
 * said (a line or steps past 0): the only trace of where a run was that the
 * worker stopped from outside, or whose isolate ran out of memory.
 */
function withCheckpoint(outcome: WorkerOutcome, view: Float64Array | undefined): WorkerOutcome {
  const checkpoint = readCheckpoint(view);
  return outcome.ok || checkpoint === undefined ? outcome : { ...outcome, checkpoint };
}

/** What a context's `__host.checkpoint` holds, when its runtime wrote it (a line or steps past 0). */
function readCheckpoint(view: Float64Array | undefined): SandboxCheckpoint | undefined {
  const line = view?.[CHECKPOINT_LINE] ?? 0;
  const steps = view?.[CHECKPOINT_STEPS] ?? 0;
  // Memory the isolate writes: only whole counts are taken from it (a runtime fault must not put NaN in a message).
  if (!Number.isSafeInteger(line) || !Number.isSafeInteger(steps) || line < 0 || steps < 0) return undefined;
  return line > 0 || steps > 0 ? { line, steps } : undefined;
}

function memoryLimit(limits: SandboxLimits, what: string): WorkerOutcome {
  return { ok: false, code: 'SANDBOX_MEMORY', message: `${what}, past its limit of ${limits.memoryMb} MiB`, limit: { name: 'memoryMb', value: limits.memoryMb } };
}

/** isolated-vm's `timeout` for a runtime bundle's top level: the run's `wallMs`, cut to what a 32-bit timeout holds. */
function topLevelTimeout(wallMs: number): number {
  return Math.min(MAX_TIMER_MS, wallMs);
}

function wallLimit(limits: SandboxLimits): WorkerOutcome {
  return { ok: false, code: 'SANDBOX_TIMEOUT', message: `the run exceeded its wall-clock limit (limit wallMs = ${limits.wallMs})`, limit: { name: 'wallMs', value: limits.wallMs } };
}

function outputLimit(limits: SandboxLimits, bytes: number): WorkerOutcome {
  return {
    ok: false,
    code: 'SANDBOX_OUTPUT_LIMIT',
    message: `events and result reached ${bytes} bytes (limit maxOutputBytes = ${limits.maxOutputBytes})`,
    limit: { name: 'maxOutputBytes', value: limits.maxOutputBytes },
  };
}

function releaseQuietly(context: ivm.Context | undefined): void {
  try {
    context?.release();
  } catch {
    // The isolate was disposed with the context in it.
  }
}
