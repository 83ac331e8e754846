/**
 * The one place this package calls the interpreter's run and check API, so
 * the swap to prepare/execute touches only this file.
 */
import { check, createInterpreter, parse, parseAndCheck, type Diagnostic, type JsonValue, type RunLimits, type RunResult } from '@askloop/interpreter';
import { createToolHost, type Policy, type ToolRegistry, type ToolStores } from '@askloop/tools';

/** What one run or check needs from the server. */
export interface NeuroScriptSetup {
  readonly registry: ToolRegistry;
  readonly policy: Policy;
  readonly limits?: Partial<RunLimits>;
  readonly stores?: Partial<ToolStores>;
  /** Session id of the tool host (idempotence records, call limits). */
  readonly session: string;
}

/** A program and its libraries, as sent by the MCP client. */
export interface NeuroScriptRequest {
  readonly program: string;
  readonly libraries?: readonly string[];
  readonly userdata?: JsonValue;
}

/** Checks, then runs a program in agent mode (one command block) in the sandbox. `turn` numbers the runs of a session. */
export async function runNeuroScript(setup: NeuroScriptSetup, request: NeuroScriptRequest, turn: number, signal?: AbortSignal): Promise<RunResult> {
  const tools = createToolHost({ registry: setup.registry, policy: setup.policy, session: setup.session, turn, ...(setup.stores === undefined ? {} : { stores: setup.stores }) });
  const interpreter = createInterpreter({ tools, policy: setup.policy, ...(setup.limits === undefined ? {} : { limits: setup.limits }) });
  return interpreter.run(request.program, {
    mode: 'agent',
    fileName: 'program.ns',
    ...(request.libraries === undefined ? {} : { libraries: [...request.libraries] }),
    ...(request.userdata === undefined ? {} : { userdata: request.userdata }),
    ...(signal === undefined ? {} : { signal }),
  });
}

/** The static check alone: every diagnostic of the program (agent mode) and of its libraries. */
export function checkNeuroScript(setup: NeuroScriptSetup, request: NeuroScriptRequest): Diagnostic[] {
  const catalog = createToolHost({ registry: setup.registry, policy: setup.policy, session: setup.session, turn: 0 }).catalog;
  const context = { tools: catalog, policy: setup.policy, allowAsk: false, allowPromptUser: false };
  const diagnostics: Diagnostic[] = [];
  for (const [index, source] of (request.libraries ?? []).entries()) {
    const fileName = `library-${index + 1}.ns`;
    const parsed = parse(source, { fileName });
    if (!parsed.ok) diagnostics.push(...parsed.diagnostics.map((diagnostic) => ({ ...diagnostic, file: fileName })));
    else diagnostics.push(...check(parsed.program, { mode: 'host', ...context }).map((diagnostic) => ({ ...diagnostic, file: fileName })));
  }
  const result = parseAndCheck(request.program, { mode: 'agent', fileName: 'program.ns', ...context });
  if (!result.ok) diagnostics.push(...result.diagnostics);
  return diagnostics;
}
