/**
 * AskLoop as an MCP server: `neuroscript_run`, `neuroscript_check` and (when
 * an `ask` function is injected) `ask`, plus the tool catalogue and a short
 * NeuroScript guide as resources. Every program is checked, then run in the
 * sandbox under the server's policy and quotas.
 */
import { randomUUID } from 'node:crypto';
import { SCRIPT_ERROR_CODES, type Diagnostic, type JsonValue, type RunLimits } from '@askloop/interpreter';
import type { Policy, ToolRegistry, ToolStores } from '@askloop/tools';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { GUIDE_URI, NEUROSCRIPT_GUIDE } from './neuroscript-guide.ts';
import { checkNeuroScript, runNeuroScript, type NeuroScriptRunResult, type NeuroScriptSetup } from './run-neuroscript.ts';
import { clientCatalogueText } from './client-catalog.ts';
import { strictInput } from './strict-input.ts';
import { PACKAGE_VERSION } from '../package-version.ts';

/** The outcome of one ask loop, as the controller reports it. */
export interface AskOutcome {
  readonly status: string;
  /** Why it halted or paused; null when it is DONE. */
  readonly reason: string | null;
  readonly result: JsonValue;
  readonly turns: number;
  /** The session id, when the host keeps sessions somewhere a person can reach them (to approve a PAUSED loop). */
  readonly sid?: string;
  /** What the HALT or PAUSE decision says; null or absent otherwise. */
  readonly message?: string | null;
  /** The last turn's failure (the cause behind most HALTs, not always the reason): its stable code, message and ACTIONS line. */
  readonly failure?: { readonly code: string; readonly message: string; readonly line?: number; readonly column?: number } | null;
}

/** The `ask` tool's answer: status, reason, result and turns; the session, and why it stopped, when known. */
function askReport(outcome: AskOutcome): Record<string, unknown> {
  const { failure } = outcome;
  return {
    status: outcome.status,
    reason: outcome.reason,
    result: outcome.result,
    turns: outcome.turns,
    ...(outcome.sid === undefined ? {} : { sid: outcome.sid }),
    ...(outcome.message === undefined || outcome.message === null ? {} : { message: outcome.message }),
    // Only what a caller acts on: the code, the words, where. The ACTIONS line itself stays in the host's transcript.
    ...(failure === undefined || failure === null
      ? {}
      : { failure: { code: failure.code, message: failure.message, ...(failure.line === undefined ? {} : { line: failure.line }), ...(failure.column === undefined ? {} : { column: failure.column }) } }),
  };
}

/** Runs a whole ask loop with a named agent (injected: the controller provides it). */
export type AskFunction = (agent: string, task: string, signal: AbortSignal) => Promise<AskOutcome>;

/** Options of {@link createAskLoopMcpServer}. */
export interface AskLoopMcpServerOptions {
  /** The tools programs may call, or a function giving them for each request (e.g. rebuilt from an MCP tool source). */
  readonly registry: ToolRegistry | (() => ToolRegistry | Promise<ToolRegistry>);
  /** The policy every program is checked and run under. */
  readonly policy: Policy;
  /** Quotas of each run (fuel, wallMs, memoryMb, …). */
  readonly limits?: Partial<RunLimits>;
  /** Stores for the memory and scratch tools. A run here keeps no idempotence records (none runs again): `idempotence` is not used. */
  readonly stores?: Partial<ToolStores>;
  /** When given, the `ask` tool is listed. */
  readonly ask?: AskFunction;
  /** The agents `ask` knows, listed in the tool's description so a client model can pick one. */
  readonly agents?: readonly { readonly name: string; readonly description?: string }[];
  /**
   * Replaces secrets in what tools give back before a client's program sees it
   * (`createToolHost({ redact })`): a tool that reads or quotes a key of the
   * server's environment must not hand it to the client. Default: nothing.
   */
  readonly redact?: (text: string) => string;
  /** What `redact` puts where it hid a secret: a write whose arguments hold it after something was hidden is refused (`createToolHost({ redactionMarker })`). */
  readonly redactionMarker?: string;
  /** Name and version announced in `initialize`. */
  readonly name?: string;
  readonly version?: string;
}

/** The report of `neuroscript_run` (also its structured content). */
export interface RunReport {
  readonly [key: string]: unknown;
  readonly ok: boolean;
  readonly emits: readonly string[];
  readonly whispers: Readonly<Record<string, string>>;
  readonly error: RunErrorReport | null;
  readonly diagnostics: readonly DiagnosticReport[];
  readonly usage: { fuel: number; toolCalls: number; wallMs: number };
}

/** The error that stopped a run, as reported to MCP clients. */
export interface RunErrorReport {
  readonly code: string;
  readonly message: string;
  /** 1-based; 0 when the error has no place in the program (a timeout, a quota). */
  readonly line: number;
  readonly column: number;
  /** How to fix it: the interpreter's table (`SCRIPT_ERROR_CODES`), for every code it has. */
  readonly fix?: string;
  /** When a failed tool call stopped the run: the code under `SCRIPT_TOOL_ERROR` (`MCP_TIMEOUT`, `FS_NOT_FOUND`) and its fix. */
  readonly cause?: { readonly code: string; readonly fix: string };
}

/** One diagnostic as reported to MCP clients. */
export interface DiagnosticReport {
  readonly code: string;
  readonly message: string;
  readonly line: number;
  readonly column: number;
  readonly file?: string;
}

const diagnosticReport = ({ code, message, line, column, file }: Diagnostic): DiagnosticReport => ({ code, message, line, column, ...(file === undefined ? {} : { file }) });

/** The fix the interpreter's table gives `code`, when it has the code. */
const scriptFix = (code: string): { fix?: string } => (Object.hasOwn(SCRIPT_ERROR_CODES, code) ? { fix: SCRIPT_ERROR_CODES[code as keyof typeof SCRIPT_ERROR_CODES].fix } : {});

/** The error of a run with its fix, and the cause under it when a tool call failed (a client can act on neither from the code alone). */
function errorReport(result: NeuroScriptRunResult): RunErrorReport | null {
  const { error, errorCause } = result;
  if (error === null) return null;
  return { code: error.code, message: error.message, line: error.line, column: error.column, ...scriptFix(error.code), ...(errorCause === undefined ? {} : { cause: { code: errorCause.code, fix: errorCause.fix } }) };
}

/** The plain report of one run. */
export function runReport(result: NeuroScriptRunResult): RunReport {
  const error = errorReport(result);
  return { ok: result.ok, emits: result.emits, whispers: result.whispers, error, diagnostics: result.diagnostics.map(diagnosticReport), usage: result.usage };
}

const reply = (report: Record<string, unknown>, isError: boolean): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(report) }],
  structuredContent: report,
  ...(isError ? { isError: true } : {}),
});

/** The agents as a sentence for the `ask` tool's description. */
const agentList = (agents: AskLoopMcpServerOptions['agents']): string =>
  agents === undefined || agents.length === 0 ? '' : ` Agents: ${agents.map((agent) => (agent.description === undefined || agent.description === '' ? agent.name : `${agent.name} (${agent.description})`)).join('; ')}.`;

const programShape = {
  program: z.string().describe('NeuroScript: exactly one command … endcommand block'),
  libraries: z.array(z.string()).optional().describe('Library scripts (func definitions) the program may call'),
};
const runInput = strictInput({ ...programShape, userdata: z.unknown().optional().describe('JSON value the program reads as the global `userdata`') });
const checkInput = strictInput(programShape);
const askInput = strictInput({ agent: z.string().describe('Agent name'), task: z.string().describe('The task, in words') });

/**
 * Returns a function that builds a server; servers built by one factory share
 * a session and number their runs from one counter (the HTTP transport builds
 * one server per request, and each run is a turn of its own: a tool that
 * reads its turn number, or a store keyed by it, never mixes two runs).
 */
export function createAskLoopMcpServerFactory(options: AskLoopMcpServerOptions): () => McpServer {
  const session = `askloop-mcp-${randomUUID()}`;
  let turn = 0;
  const setup = async (): Promise<NeuroScriptSetup> => ({
    registry: typeof options.registry === 'function' ? await options.registry() : options.registry,
    policy: options.policy,
    session,
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.stores === undefined ? {} : { stores: options.stores }),
    ...(options.redact === undefined ? {} : { redact: options.redact }),
    ...(options.redactionMarker === undefined ? {} : { redactionMarker: options.redactionMarker }),
  });

  return () => {
    const server = new McpServer({ name: options.name ?? 'askloop', version: options.version ?? PACKAGE_VERSION }, { capabilities: { tools: {}, resources: {} } });

    server.registerTool(
      'neuroscript_run',
      {
        description: 'Check a NeuroScript program (one command block) against the tool catalogue and policy, then run it in a sandbox with quotas. Returns emits, whispers, the error (code, line, column) and diagnostics; nothing runs when a check fails.',
        inputSchema: runInput,
        annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
      },
      async ({ program, libraries, userdata }, extra) => {
        turn += 1;
        const result = await runNeuroScript(await setup(), { program, ...(libraries === undefined ? {} : { libraries }), ...(userdata === undefined ? {} : { userdata: userdata as JsonValue }) }, turn, extra.signal);
        const report = runReport(result);
        return reply(report, !report.ok);
      },
    );

    server.registerTool(
      'neuroscript_check',
      {
        description: 'Statically check a NeuroScript program (one command block) and its libraries against the tool catalogue and policy; runs nothing. Returns the diagnostics.',
        inputSchema: checkInput,
        annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      },
      async ({ program, libraries }) => {
        const diagnostics = (await checkNeuroScript(await setup(), { program, ...(libraries === undefined ? {} : { libraries }) })).map(diagnosticReport);
        return reply({ ok: diagnostics.length === 0, diagnostics }, false);
      },
    );

    const ask = options.ask;
    if (ask !== undefined) {
      server.registerTool(
        'ask',
        {
          description: `Run a whole AskLoop ask loop with a named agent on a task; returns its status (DONE, HALT or PAUSED), reason, result and number of turns; after a HALT or PAUSE its message, and the last turn's failure, usually the cause (code, message, line).${agentList(options.agents)}`,
          inputSchema: askInput,
          annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
        },
        async ({ agent, task }, extra) => {
          try {
            const outcome = await ask(agent, task, extra.signal);
            return reply(askReport(outcome), false);
          } catch (error) {
            const code = typeof (error as { code?: unknown } | null)?.code === 'string' ? `[${(error as { code: string }).code}] ` : '';
            return { content: [{ type: 'text', text: `ask failed: ${code}${error instanceof Error ? error.message : String(error)}` }], isError: true };
          }
        },
      );
    }

    server.registerResource('catalogue', 'askloop://catalogue', { description: 'The tools a program may call under this server\'s policy', mimeType: 'text/plain' }, async (uri) => {
      const registry = (await setup()).registry;
      // The check's own catalogue: a tool that needs approval, which every program sent here is refused, is not listed as callable.
      return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: clientCatalogueText(registry, options.policy, session) }] };
    });
    server.registerResource('neuroscript-guide', GUIDE_URI, { description: 'A short NeuroScript guide', mimeType: 'text/markdown' }, async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/markdown', text: NEUROSCRIPT_GUIDE }],
    }));

    return server;
  };
}

/** One AskLoop MCP server (connect it to a transport, e.g. `StdioServerTransport`). */
export function createAskLoopMcpServer(options: AskLoopMcpServerOptions): McpServer {
  return createAskLoopMcpServerFactory(options)();
}
