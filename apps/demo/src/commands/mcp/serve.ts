/**
 * `askloop mcp serve [tool options] [--mcp-config FILE] [--agent FILE …] [--http PORT] [quotas]`:
 * AskLoop as an MCP server — `neuroscript_run` and `neuroscript_check` under
 * the policy the tool options build, `ask` (a whole ask loop with a named
 * agent) when agent files are given, plus the catalogue and guide resources.
 * Stdio by default (standard output then carries only the protocol); with
 * `--http PORT`, Streamable HTTP on 127.0.0.1 only.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { closeDefaultPool } from '@askloop/interpreter';
import { createAskLoopMcpServerFactory, serveMcpHttp, serveMcpStdio, type McpToolSource } from '@askloop/mcp';
import { usageError } from '../../cli-error.ts';
import type { Command } from '../../io.ts';
import { integerOption } from '../../options/parse-options.ts';
import { RUN_LIMIT_OPTIONS, RUN_LIMIT_OPTIONS_USAGE, runLimitOptions } from '../../options/run-limit-options.ts';
import { buildToolSetup, TOOL_OPTIONS, TOOL_OPTIONS_USAGE } from '../ns/tool-options.ts';
import { firstListing, loadMcpToolSource, MCP_CONFIG_OPTION, MCP_CONFIG_USAGE, mcpRegistryFactory } from './load-mcp-config.ts';
import { loadAgentFiles, loadServeScript, SERVE_AGENT_OPTIONS, SERVE_AGENT_USAGE } from './load-serve-agents.ts';
import { createServeAsk, type ServeAsk } from './serve-ask.ts';
import { openSessionStore } from '../../loop/open-session-loop.ts';
import { knownSecretNames } from '../../known-secret-names.ts';
import { environmentRedaction } from '../../redact-secrets.ts';

/** Resolves when the process is asked to stop. */
const stopSignal = (): Promise<void> =>
  new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });

/** The tool options as `serve` takes them: `--http` is its port, so the HTTP tool is `--http-tools` here. */
const SERVE_TOOL_OPTIONS_USAGE = TOOL_OPTIONS_USAGE.replace(
  '  --http            add tool.http.Fetch (needs --allow and a net grant).',
  '  --http-tools      add tool.http.Fetch (needs --allow and a net grant; --http\n                    is the port here).',
);

/** `askloop mcp serve`. */
export const serveCommand: Command = {
  usage: `Usage: askloop mcp serve [tool options] [--mcp-config FILE] [--agent FILE …] [--script FILE] [--db FILE] [--http PORT] [--http-tools] [--fuel N] [--timeout-ms N] [--memory-mb N]

Serves AskLoop over the Model Context Protocol. Tools:
  neuroscript_run    check a program (one command block, optional libraries)
                     against the catalogue and policy, then run it in the sandbox;
                     returns emits, whispers, error {code,line,column}, diagnostics
  neuroscript_check  the static check alone
  ask                (with --agent) run a whole ask loop with a named agent;
                     returns its status, reason, result and number of turns
Resources: askloop://catalogue (the allowed tools), askloop://guide/neuroscript.

Over stdio by default (standard output carries only the protocol; messages go
to standard error). With --http PORT, Streamable HTTP at
http://127.0.0.1:PORT/mcp (loopback only; 0 picks a free port); stops on
SIGINT/SIGTERM.

${SERVE_TOOL_OPTIONS_USAGE}
${MCP_CONFIG_USAGE}

${SERVE_AGENT_USAGE}

Options:
  --http PORT       serve Streamable HTTP on 127.0.0.1:PORT instead of stdio.
${RUN_LIMIT_OPTIONS_USAGE}
`,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: { ...TOOL_OPTIONS, ...MCP_CONFIG_OPTION, ...SERVE_AGENT_OPTIONS, http: { type: 'string' }, 'http-tools': { type: 'boolean' }, ...RUN_LIMIT_OPTIONS },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length > 0) throw usageError(`unexpected argument '${positionals[0]}'`);
    const port = integerOption('http', values.http, { min: 0, max: 65_535, why: 'a TCP port; 0 picks a free one' });
    const limits = runLimitOptions(values);
    // `--http` here is the port; the tool options' `--http` flag (tool.http.Fetch) is `--http-tools`.
    const toolValues = { ...values, http: values['http-tools'] };
    const setup = buildToolSetup(toolValues, io, undefined, '--http-tools');
    if (values.script !== undefined && values.agent === undefined) throw usageError('--script needs at least one --agent FILE (it scripts the agents\' models)');
    if (values.db !== undefined && values.agent === undefined) throw usageError('--db needs at least one --agent FILE (it keeps the ask sessions)');
    const agents = await loadAgentFiles(values.agent ?? [], io);
    const script = values.script === undefined ? undefined : await loadServeScript(values.script, io);
    const source: McpToolSource | undefined = values['mcp-config'] === undefined ? undefined : await loadMcpToolSource(values['mcp-config'], io);
    // A server that cannot start, or whose tool is named as a built-in one, would fail every client's call alike, and no
    // client can fix it: refused here (the registry is built once, as each call builds it).
    if (source !== undefined) await firstListing(source, values['mcp-config'] as string, () => mcpRegistryFactory(source, toolValues, io)());
    const store = values.db === undefined ? undefined : openSessionStore(resolve(io.cwd, values.db));
    const asking: ServeAsk | undefined = agents.length === 0 ? undefined : createServeAsk({ agents, script, source, store, values: toolValues, io });
    // The environment's keys never reach a client through what a tool gives its program (redact-secrets.ts).
    const redaction = environmentRedaction(io.env, knownSecretNames(io));
    const makeServer = createAskLoopMcpServerFactory({
      registry: source === undefined ? setup.registry : mcpRegistryFactory(source, toolValues, io),
      policy: setup.policy,
      limits,
      stores: setup.stores(),
      ...(asking === undefined ? {} : { ask: asking.ask, agents: asking.agents }),
      ...redaction,
    });
    try {
      if (port !== undefined) {
        const endpoint = await serveMcpHttp(makeServer, { port });
        io.stderr(`askloop MCP server listening on ${endpoint.url}\n`);
        await stopSignal();
        await endpoint.close();
      } else {
        // Reads process.stdin and writes process.stdout directly, not through `io`: they carry the protocol.
        // A SIGINT or SIGTERM ends the serving as the client's disconnect does, so `finally` below closes the MCP servers
        // behind the tools (ending their stdin, then SIGTERM) instead of leaving them orphaned.
        const server = makeServer();
        await Promise.race([serveMcpStdio(server), stopSignal()]);
        await server.close();
      }
    } finally {
      await asking?.close();
      await source?.close();
      await closeDefaultPool();
    }
    return 0;
  },
};

