/**
 * `createInterpreter`: the host API. `prepare` parses and checks a program
 * (nothing runs on any error diagnostic) into plain, persistable data;
 * `execute` evaluates a prepared program in a fresh context of the sandbox
 * pool with its quotas. Tools run in the host through the run's bridge; emits
 * and whispers stream out as they happen (so they survive a run the sandbox
 * has to stop) and are returned with the result.
 */
import type { Program } from '../ast/index.ts';
import { compileEvaluation, type EvaluationOutput } from '../evaluate/index.ts';
import type { Diagnostic } from '../parse/index.ts';
import { type JsonValue, MAX_ASKS_AND_PROMPTS, type RunLimits, type ScriptErrorData } from '../runtime/index.ts';
import type { SandboxLimits, SandboxRunRequest } from '../sandbox/index.ts';
import { SandboxError } from '../sandbox/sandbox-error.ts';
import { assembleResult } from './assemble-result.ts';
import { defaultPool } from './default-pool.ts';
import { EVALUATOR_ENTRY, evaluatorBundle } from './evaluator-bundle.ts';
import { createHostCallHandler } from './host-call-handler.ts';
import { mapSandboxError } from './map-sandbox-error.ts';
import { isChecked, rememberChecked } from './checked-programs.ts';
import { ignoreRejection } from './observer-result.ts';
import { globalsNestingError } from './globals-nesting.ts';
import { globalsAsSent } from './json-trip.ts';
import { runLimits } from './run-limits.ts';
import { checkRunOptions } from './run-options-check.ts';
import { prepareProgram, validatePrepared } from './prepare-program.ts';
import type { ExecuteOptions, Interpreter, InterpreterOptions, PreparedProgram, PrepareOptions, PrepareResult, RunOptions, RunResult } from './run-types.ts';
import { WALL_GRACE_MS } from './wall-grace.ts';


/**
 * The sandbox's limits for a run: backstops that fire only when the
 * evaluator's own typed limits (which name the limit to the script) did not.
 */
function backstopLimits(limits: RunLimits): SandboxLimits {
  return {
    // The evaluator checks the clock between steps; a tool call or a long built-in may overrun a little.
    wallMs: limits.wallMs + WALL_GRACE_MS,
    // isolated-vm refuses heaps under 8 MB.
    memoryMb: Math.max(8, limits.memoryMb),
    // The evaluator counts tool calls, and asks with promptusers, itself; the bridge counts them all together.
    maxToolCalls: limits.toolCalls + MAX_ASKS_AND_PROMPTS,
    // Counted over the events and the result JSON, which both carry every emit and whisper (two copies), escaped: a
    // control character, one byte of OUTPUT, is six in JSON (`\u0001`). So 2 × 6 = 12 bytes a byte of OUTPUT or
    // SCRATCHPAD at most, and 1 MiB for the rest of the result. (8 made a run within both caps fail here.)
    maxOutputBytes: 12 * (limits.outputBytes + limits.scratchpadBytes) + 1024 * 1024,
    maxToolDataChars: limits.toolDataChars,
  };
}

/** The options `createInterpreter` reads. */
const INTERPRETER_OPTIONS = ['pool', 'orchestrator', 'promptUser', 'limits'];

/**
 * Refuses options the interpreter would ignore or fail on only at its first run (`SANDBOX_INVALID_REQUEST`): an
 * unknown one (`pools`), a pool without `run`, hooks that are not functions, and limits `runLimits` refuses.
 */
function checkInterpreterOptions(options: InterpreterOptions): void {
  const invalid = (why: string) => new SandboxError('SANDBOX_INVALID_REQUEST', `createInterpreter(): ${why}`);
  if (typeof options !== 'object' || options === null) throw invalid(`its options are an object ({ pool, orchestrator, promptUser, limits }), got ${String(options)}`);
  for (const key of Object.keys(options)) if (!INTERPRETER_OPTIONS.includes(key)) throw invalid(`there is no option ${key} (the options: ${INTERPRETER_OPTIONS.join(', ')})`);
  if (options.pool !== undefined && typeof (options.pool as { run?: unknown } | null)?.run !== 'function') throw invalid('pool must be a sandbox pool (createSandboxPool()), with a run function');
  if (options.promptUser !== undefined && typeof options.promptUser !== 'function') throw invalid('promptUser must be a function (prompt, signal) => answer');
  if (options.orchestrator !== undefined && typeof (options.orchestrator as { runAskLoop?: unknown } | null)?.runAskLoop !== 'function') throw invalid('orchestrator must be an object with a runAskLoop(request) function');
  // The same check each run makes: a bad default limit failed every run, not the construction.
  if (options.limits !== undefined) runLimits(options.limits);
}

/** The first error diagnostic as the run's error. */
function diagnosticError(diagnostics: readonly Diagnostic[]): ScriptErrorData | null {
  const first = diagnostics.find((diagnostic) => diagnostic.severity === 'error') ?? diagnostics[0];
  if (first === undefined) return null;
  return {
    code: first.code,
    kind: first.kind,
    ...(first.numericCode === undefined ? {} : { numericCode: first.numericCode }),
    message: first.message,
    line: first.line,
    column: first.column,
    frames: [],
    ...(first.grant === undefined ? {} : { grant: first.grant }),
  };
}

/** Calls an observer of the run (`onEmit`, `onWhisper`): one that throws, or whose promise rejects, is not part of the run, as `onToolCall` is not. */
function observe(listener: () => unknown): void {
  try {
    ignoreRejection(listener());
  } catch {
    // The run goes on; what the observer missed is in the result.
  }
}

/**
 * The run's `localTools` for the pool, with the report of each call the worker answered: booked on the run's bridge,
 * then told to `onToolCall` as a call the bridge made is. Nothing when the bridge cannot book them, or when none of
 * the tools is one the check approved.
 */
function localToolsOf(executeOptions: ExecuteOptions, approvedTools: ReadonlySet<string>, limits: RunLimits): Pick<SandboxRunRequest, 'localTools' | 'onLocalToolCall'> {
  const { localTools, tools } = executeOptions;
  const recordLocalCall = tools?.recordLocalCall;
  if (localTools === undefined || typeof recordLocalCall !== 'function') return {};
  const names = localTools.names.filter((name) => approvedTools.has(name));
  if (names.length === 0) return {};
  // A result the worker gives passes the bridge's bounds as well as the run's: the host's path applies both.
  const bridge = localTools.limits;
  const tighter = (run: number, bound: number | undefined): number => (typeof bound === 'number' && bound < run ? bound : run);
  return {
    localTools: {
      module: localTools.module,
      names,
      limits: { stringLength: tighter(limits.stringLength, bridge?.stringLength), collectionSize: tighter(limits.collectionSize, bridge?.collectionSize) },
      ...(localTools.secrets === undefined ? {} : { secrets: localTools.secrets }),
    },
    onLocalToolCall: (call) => {
      recordLocalCall.call(tools, call.name);
      const report = { name: call.name, args: call.args as JsonValue[], result: call.result, durationMs: call.durationMs };
      observe(() => executeOptions.onToolCall?.(report));
    },
  };
}

/** Creates an interpreter with an optional pool, `ask` orchestrator, prompt hook and default quotas. Tools are per run. */
export function createInterpreter(options: InterpreterOptions = {}): Interpreter {
  checkInterpreterOptions(options);
  /** `prepare` on options already checked (`run` passes its own, which hold `execute`'s too). */
  async function prepare(source: string | Program, prepareOptions: PrepareOptions): Promise<PrepareResult> {
    const mode = prepareOptions.mode ?? 'agent';
    const result = await prepareProgram(
      source,
      prepareOptions.libraries ?? [],
      {
        mode,
        ...(prepareOptions.catalog === undefined ? {} : { tools: prepareOptions.catalog }),
        ...(prepareOptions.globalNames === undefined ? {} : { globals: new Set(prepareOptions.globalNames) }),
        // An explicit allowAsk wins in either mode; by default an agent turn may ask only when an orchestrator can answer.
        ...(prepareOptions.allowAsk !== undefined ? { allowAsk: prepareOptions.allowAsk } : mode === 'host' ? {} : { allowAsk: options.orchestrator !== undefined }),
      },
      prepareOptions.fileName,
    );
    if (result.ok) rememberChecked(result.prepared);
    return result;
  }

  async function execute(input: PreparedProgram, executeOptions: ExecuteOptions = {}, calledAt = Date.now(), warnings: readonly Diagnostic[] = []): Promise<RunResult> {
    // A program this process prepared is frozen as checked; anything else is copied and validated first.
    const validated = isChecked(input) ? { ok: true as const, prepared: input } : validatePrepared(input);
    if (!validated.ok) return assembleResult([], [], diagnosticError(validated.diagnostics), { fuel: 0, toolCalls: 0, wallMs: Date.now() - calledAt }, validated.diagnostics);
    const { prepared } = validated;
    const limits = runLimits({ ...options.limits, ...executeOptions.limits });
    const globals: Record<string, JsonValue> = { ...(executeOptions.globals ?? {}), ...(executeOptions.userdata === undefined ? {} : { userdata: executeOptions.userdata }) };
    // Before the JSON copy into the sandbox, which would overflow the host's stack on a deep enough global.
    const tooDeep = globalsNestingError(globalsAsSent(globals));
    if (tooDeep !== undefined) return assembleResult([], [], tooDeep, { fuel: 0, toolCalls: 0, wallMs: Date.now() - calledAt }, warnings);
    // The code is generated here, in the host (warm, once per run); only it and its tables cross into the sandbox, no AST.
    // No `startedAt`: the evaluator starts its wall clock when the worker calls it, so a wait in the pool's queue is not the run's time.
    const evaluationInput = compileEvaluation({
      program: prepared.program,
      libraries: prepared.libraries,
      limits,
      globals: globalsAsSent(globals),
      stream: true,
    });
    let startedAt: number | undefined;
    const emits: string[] = [];
    const emitLines: number[] = [];
    const whispers: { target: string; text: string }[] = [];
    const pool = options.pool ?? defaultPool();
    const approvedTools = new Set(prepared.approvedTools);
    const result = await pool.run({
      runtime: evaluatorBundle(),
      entry: EVALUATOR_ENTRY,
      input: evaluationInput,
      limits: backstopLimits(limits),
      onToolCall: createHostCallHandler({
        tools: executeOptions.tools,
        orchestrator: options.orchestrator,
        promptUser: options.promptUser,
        interpreter,
        approvedTools,
        onToolCall: executeOptions.onToolCall?.bind(executeOptions),
        limits,
      }),
      onEvent: (kind, payload) => {
        const event = payload as { target?: unknown; text?: unknown; line?: unknown };
        const text = String(event.text ?? '');
        if (kind === 'emit') {
          emits.push(text);
          emitLines.push(typeof event.line === 'number' ? event.line : 0);
          observe(() => executeOptions.onEmit?.(text));
        } else if (kind === 'whisper') {
          const target = String(event.target ?? '');
          whispers.push({ target, text });
          observe(() => executeOptions.onWhisper?.(target, text));
        }
      },
      ...localToolsOf(executeOptions, approvedTools, limits),
      onStart: () => {
        startedAt = Date.now();
        // Returned, so that the pool fails the run when an async onStart rejects, as when it throws.
        return executeOptions.onStart?.();
      },
      ...(executeOptions.signal === undefined ? {} : { signal: executeOptions.signal }),
    });
    // A pool that never reports the start (a custom runner) is timed from the call, as before.
    const wallMs = Date.now() - (startedAt ?? calledAt);
    if (!result.ok) {
      // Stopped from outside (cancelled, out of time or memory, a dead worker): the isolate is gone. What it spent is
      // the evaluator's last checkpoint: the one the worker sent with the run's last tool call, `ask` or `promptuser`
      // (exact when it was stopped during one), or the later one the worker read as the run ended (within ~1,000
      // steps or a few ms of the truth).
      const fuel = result.error.checkpoint?.steps ?? 0;
      return assembleResult(emits, whispers, mapSandboxError(result.error, limits.wallMs), { fuel, toolCalls: result.usage.toolCalls, wallMs }, warnings, emitLines);
    }
    const output = result.value as EvaluationOutput;
    return assembleResult(output.emits, output.whispers, output.error, { fuel: output.fuel, toolCalls: output.toolCalls, wallMs }, warnings, output.emitLines);
  }

  // Each checks its options first (a misspelt one was ignored: `tools` for `catalog` checked no tool before the run).
  const interpreter: Interpreter = {
    async prepare(source: string | Program, prepareOptions: PrepareOptions = {}): Promise<PrepareResult> {
      checkRunOptions('prepare', prepareOptions);
      return prepare(source, prepareOptions);
    },
    async execute(prepared: PreparedProgram, executeOptions: ExecuteOptions = {}): Promise<RunResult> {
      checkRunOptions('execute', executeOptions);
      return execute(prepared, executeOptions);
    },
    async run(source: string | Program, runOptions: RunOptions = {}): Promise<RunResult> {
      checkRunOptions('run', runOptions);
      const startedAt = Date.now();
      const catalog = runOptions.catalog ?? runOptions.tools?.catalog;
      // The run binds exactly these, so the check can tell a bare-name map key nothing binds.
      // The names that reach the run, as `execute` sends the globals: one whose value serialises to nothing (undefined,
      // a function) is not bound there; globals JSON refuses (a BigInt, a cycle) are passed on for the sandbox to refuse.
      const bound = Object.keys(globalsAsSent(runOptions.globals ?? {}));
      const globalNames = runOptions.globalNames ?? [...bound, ...(runOptions.userdata === undefined ? [] : ['userdata'])];
      const prepared = await prepare(source, { ...runOptions, globalNames, ...(catalog === undefined ? {} : { catalog }) });
      if (!prepared.ok) {
        return assembleResult([], [], diagnosticError(prepared.diagnostics), { fuel: 0, toolCalls: 0, wallMs: Date.now() - startedAt }, prepared.diagnostics);
      }
      return execute(prepared.prepared, runOptions, startedAt, prepared.diagnostics);
    },
  };
  return interpreter;
}
