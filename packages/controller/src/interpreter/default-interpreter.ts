/**
 * The loop's interpreter port over today's `@askloop/interpreter` API:
 * `parseAndCheck` prepares (nothing runs), `createInterpreter({ tools, pool })
 * .run(program)` executes in a fresh sandbox context. The interpreter's own
 * prepare/execute replace this file with a one-liner when they land.
 */
import { createInterpreter, findToolCalls, parseAndCheck, type JsonValue, type Program, type ScriptErrorData } from '@askloop/interpreter';
import type { SandboxRunner } from '@askloop/interpreter';
import type { ExecuteOptions, LoopInterpreter, PreparedProgram, PrepareOptions, PrepareResult } from './loop-interpreter.ts';

/** Creates the default interpreter on `pool` (the interpreter's shared default pool when absent). */
export function createDefaultInterpreter(pool?: SandboxRunner): LoopInterpreter {
  return {
    async prepare(source: string, options: PrepareOptions = {}): Promise<PrepareResult> {
      const mode = options.mode ?? 'agent';
      const checked = parseAndCheck(source, {
        mode,
        ...(options.catalog === undefined ? {} : { tools: options.catalog }),
        ...(options.fileName === undefined ? {} : { fileName: options.fileName }),
        ...(mode === 'agent' ? { allowAsk: options.allowAsk === true } : {}),
      });
      if (!checked.ok) return { ok: false, diagnostics: checked.diagnostics };
      const approvedTools = [...new Set(findToolCalls(checked.program).map(({ tool }) => tool.canonicalName))].sort();
      const prepared: PreparedProgram = { mode, program: checked.program, libraries: [], approvedTools };
      return { ok: true, prepared, diagnostics: checked.diagnostics };
    },

    async execute(prepared: PreparedProgram, options: ExecuteOptions = {}) {
      const bridge = options.tools;
      const observe = options.onToolCall;
      const tools = bridge === undefined
        ? undefined
        : {
            ...(bridge.catalog === undefined ? {} : { catalog: bridge.catalog }),
            async call(name: string, args: readonly JsonValue[]): Promise<unknown> {
              const started = performance.now();
              try {
                const result = (await bridge.call(name, args)) as JsonValue;
                observe?.({ name, args, result, durationMs: performance.now() - started });
                return result;
              } catch (error) {
                const failure = error as { code?: unknown; message?: unknown };
                const data: ScriptErrorData = {
                  code: typeof failure.code === 'string' ? failure.code : 'SCRIPT_TOOL_ERROR',
                  message: typeof failure.message === 'string' ? failure.message : String(error),
                  line: 0,
                  column: 0,
                  frames: [],
                };
                observe?.({ name, args, error: data, durationMs: performance.now() - started });
                throw error;
              }
            },
          };
      const ask = options.ask;
      const interpreter = createInterpreter({
        ...(pool === undefined ? {} : { pool }),
        ...(tools === undefined ? {} : { tools }),
        ...(ask === undefined ? {} : { orchestrator: { runAskLoop: ({ agent, prompt, options: askOptions, signal }) => ask({ agent, prompt, options: askOptions, signal }) } }),
      });
      return interpreter.run(prepared.program as Program, {
        mode: prepared.mode,
        libraries: prepared.libraries,
        ...(options.limits === undefined ? {} : { limits: options.limits }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.userdata === undefined ? {} : { userdata: options.userdata }),
        ...(options.globals === undefined ? {} : { globals: options.globals }),
        ...(options.onEmit === undefined ? {} : { onEmit: options.onEmit }),
        ...(options.onWhisper === undefined ? {} : { onWhisper: options.onWhisper }),
      });
    },
  };
}
