/**
 * `createInterpreter`: the host API. A run parses and checks the program
 * (nothing runs on any diagnostic), then evaluates it in a fresh context of
 * the sandbox pool with its quotas. Tools run in the host through one bridge;
 * emits and whispers stream out as they happen (so they survive a run the
 * sandbox has to stop) and are returned with the result.
 */
import type { Program } from '../ast/index.ts';
import type { EvaluationInput, EvaluationOutput } from '../evaluate/index.ts';
import { resolveLimits, type ScriptErrorData } from '../runtime/index.ts';
import { assembleResult } from './assemble-result.ts';
import { defaultPool } from './default-pool.ts';
import { EVALUATOR_ENTRY, evaluatorBundle } from './evaluator-bundle.ts';
import { createHostCallHandler } from './host-call-handler.ts';
import { mapSandboxError } from './map-sandbox-error.ts';
import { prepareProgram } from './prepare-program.ts';
import type { Interpreter, InterpreterOptions, RunOptions, RunResult } from './run-types.ts';

/** Extra room the sandbox's own backstops leave above the evaluator's typed limits. */
const WALL_GRACE_MS = 250;

/** Creates an interpreter with tools, an optional `ask` orchestrator and default quotas. */
export function createInterpreter(options: InterpreterOptions = {}): Interpreter {
  const interpreter: Interpreter = {
    async run(input: string | Program, runOptions: RunOptions = {}): Promise<RunResult> {
      const startedAt = Date.now();
      const mode = runOptions.mode ?? 'agent';
      const prepared = prepareProgram(
        input,
        runOptions.libraries ?? [],
        {
          mode,
          ...(options.tools?.catalog === undefined ? {} : { tools: options.tools.catalog }),
          ...(options.policy === undefined ? {} : { policy: options.policy }),
          ...(mode === 'host' ? {} : { allowAsk: options.orchestrator !== undefined }),
        },
        runOptions.fileName,
      );
      if (!prepared.ok) {
        const first = prepared.diagnostics[0];
        const error: ScriptErrorData | null =
          first === undefined
            ? null
            : {
                code: first.code,
                ...(first.numericCode === undefined ? {} : { numericCode: first.numericCode }),
                message: first.message,
                line: first.line,
                column: first.column,
                frames: [],
              };
        return assembleResult([], [], error, { fuel: 0, toolCalls: 0, wallMs: Date.now() - startedAt }, prepared.diagnostics);
      }
      const limits = resolveLimits({ ...options.limits, ...runOptions.limits });
      const globals = { ...(runOptions.globals ?? {}), ...(runOptions.userdata === undefined ? {} : { userdata: runOptions.userdata }) };
      const evaluationInput: EvaluationInput = {
        program: prepared.program,
        libraries: prepared.libraries,
        limits,
        globals,
        stream: true,
        startedAt,
      };
      const emits: string[] = [];
      const whispers: { target: string; text: string }[] = [];
      const pool = options.pool ?? defaultPool();
      const result = await pool.run({
        runtime: evaluatorBundle(),
        entry: EVALUATOR_ENTRY,
        input: evaluationInput,
        limits: {
          wallMs: limits.wallMs + WALL_GRACE_MS,
          memoryMb: Math.max(8, limits.memoryMb),
          maxToolCalls: limits.toolCalls + 1000,
          maxOutputBytes: 8 * (limits.outputBytes + limits.scratchpadBytes) + 1024 * 1024,
        },
        onToolCall: createHostCallHandler({
          tools: options.tools,
          orchestrator: options.orchestrator,
          promptUser: options.promptUser,
          interpreter,
          approvedTools: prepared.approvedTools,
          policy: options.policy,
        }),
        onEvent: (kind, payload) => {
          const event = payload as { target?: unknown; text?: unknown };
          const text = String(event.text ?? '');
          if (kind === 'emit') {
            emits.push(text);
            runOptions.onEmit?.(text);
          } else if (kind === 'whisper') {
            const target = String(event.target ?? '');
            whispers.push({ target, text });
            runOptions.onWhisper?.(target, text);
          }
        },
        ...(runOptions.signal === undefined ? {} : { signal: runOptions.signal }),
      });
      const wallMs = Date.now() - startedAt;
      if (!result.ok) {
        return assembleResult(emits, whispers, mapSandboxError(result.error), { fuel: 0, toolCalls: result.usage.toolCalls, wallMs });
      }
      const output = result.value as EvaluationOutput;
      return assembleResult(output.emits, output.whispers, output.error, { fuel: output.fuel, toolCalls: output.toolCalls, wallMs });
    },
  };
  return interpreter;
}
