/**
 * `askloop mcp serve [tool options] [--mcp-config FILE] [--http PORT] [quotas]`:
 * AskLoop as an MCP server — `neuroscript_run` and `neuroscript_check` under
 * the policy the tool options build, plus the catalogue and guide resources.
 * Stdio by default (standard output then carries only the protocol); with
 * `--http PORT`, Streamable HTTP on 127.0.0.1 only.
 */
import { parseArgs } from 'node:util';
import { closeDefaultPool, type RunLimits } from '@askloop/interpreter';
import { createAskLoopMcpServerFactory, serveMcpHttp, serveMcpStdio, type McpToolSource } from '@askloop/mcp';
import type { Command } from '../../io.ts';
import { UsageError } from '../../io.ts';
import { buildToolSetup, TOOL_OPTIONS, TOOL_OPTIONS_USAGE } from '../ns/tool-options.ts';
import { loadMcpToolSource, MCP_CONFIG_OPTION, MCP_CONFIG_USAGE, mcpRegistryFactory } from './load-mcp-config.ts';

function positiveInteger(name: string, text: string | undefined, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[0-9]+$/.test(text) || Number(text) > max || (name !== 'http' && Number(text) === 0)) throw new UsageError(`--${name} must be a whole number${name === 'http' ? ' from 0 to 65535' : ' above 0'}, got '${text}'`);
  return Number(text);
}

/** Resolves when the process is asked to stop. */
const stopSignal = (): Promise<void> =>
  new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });

/** `askloop mcp serve`. */
export const serveCommand: Command = {
  name: 'serve',
  summary: 'serve NeuroScript run/check as an MCP server (stdio or loopback HTTP)',
  usage: `Usage: askloop mcp serve [tool options] [--mcp-config FILE] [--http PORT] [--fuel N] [--timeout-ms N] [--memory-mb N]

Serves AskLoop over the Model Context Protocol. Tools:
  neuroscript_run    check a program (one command block, optional libraries)
                     against the catalogue and policy, then run it in the sandbox;
                     returns emits, whispers, error {code,line,column}, diagnostics
  neuroscript_check  the static check alone
Resources: askloop://catalogue (the allowed tools), askloop://guide/neuroscript.

Over stdio by default (standard output carries only the protocol; messages go
to standard error). With --http PORT, Streamable HTTP at
http://127.0.0.1:PORT/mcp (loopback only; 0 picks a free port); stops on
SIGINT/SIGTERM.

${TOOL_OPTIONS_USAGE}
${MCP_CONFIG_USAGE}

Options:
  --http PORT       serve Streamable HTTP on 127.0.0.1:PORT instead of stdio.
  --fuel N          evaluation steps per run (default 1000000).
  --timeout-ms N    wall-clock per run, tool time included (default 5000).
  --memory-mb N     isolate heap per run (default 64).
`,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: { ...TOOL_OPTIONS, ...MCP_CONFIG_OPTION, http: { type: 'string' }, 'http-tools': { type: 'boolean' }, fuel: { type: 'string' }, 'timeout-ms': { type: 'string' }, 'memory-mb': { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const port = positiveInteger('http', values.http, 65_535);
    const fuel = positiveInteger('fuel', values.fuel);
    const wallMs = positiveInteger('timeout-ms', values['timeout-ms']);
    const memoryMb = positiveInteger('memory-mb', values['memory-mb']);
    const limits: Partial<RunLimits> = { ...(fuel === undefined ? {} : { fuel }), ...(wallMs === undefined ? {} : { wallMs }), ...(memoryMb === undefined ? {} : { memoryMb }) };
    // `--http` here is the port; the tool options' `--http` flag (tool.http.Fetch) is `--http-tools`.
    const toolValues = { ...values, http: values['http-tools'] };
    const setup = buildToolSetup(toolValues, io);
    const source: McpToolSource | undefined = values['mcp-config'] === undefined ? undefined : await loadMcpToolSource(values['mcp-config'], io);
    const makeServer = createAskLoopMcpServerFactory({
      registry: source === undefined ? setup.registry : mcpRegistryFactory(source, toolValues, io),
      policy: setup.policy,
      limits,
    });
    try {
      if (port !== undefined) {
        const endpoint = await serveMcpHttp(makeServer, { port });
        io.stderr(`askloop MCP server listening on ${endpoint.url}\n`);
        await stopSignal();
        await endpoint.close();
      } else {
        // Reads process.stdin and writes process.stdout directly, not through `io`: they carry the protocol.
        await serveMcpStdio(makeServer());
      }
    } finally {
      await source?.close();
      await closeDefaultPool();
    }
    return 0;
  },
};
