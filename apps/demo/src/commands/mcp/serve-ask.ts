/**
 * The `ask` tool of `askloop mcp serve --agent FILE …`: one controller
 * (`createAskLoop`) for the server's lifetime, with `builtinPlugin` (the
 * hosted providers, keys read from the environment when a model is called;
 * the safe built-in tools, and `tool.fs.*`/`tool.http.Fetch` when the tool
 * options add them) and a plugin carrying the agents from the files, the
 * scripted provider and the MCP servers of `--mcp-config`. Each `ask` is a
 * new session, in the `--db` sessions file when given (so a person can
 * `askloop approve` a PAUSED one) or else in memory, run under the named
 * agent's own policy, quotas and ceilings.
 */
import { resolve } from 'node:path';
import { builtinPlugin, createAskLoop, createMemoryTranscriptStore, definePlugin, type AgentDefinition, type TranscriptStore } from '@askloop/controller';
import type { AskFunction } from '@askloop/mcp';
import type { McpToolSource } from '@askloop/mcp';
import { createScriptedProvider } from '@askloop/providers';
import type { CommandIo } from '../../io.ts';
import { knownSecretNames } from '../../known-secret-names.ts';
import { environmentSecretsOf } from '../../redact-secrets.ts';
import type { ToolOptionValues } from '../ns/tool-options.ts';
import { scriptedModels, type ServeScript } from './load-serve-agents.ts';

/** What {@link createServeAsk} needs. */
export interface ServeAskOptions {
  readonly agents: readonly AgentDefinition[];
  readonly script?: ServeScript | undefined;
  /** The `--mcp-config` servers, shared with `neuroscript_run` (the loop lists them before each turn). */
  readonly source?: McpToolSource | undefined;
  /** The sessions store (`--db`); default: in memory, gone when the server stops. */
  readonly store?: TranscriptStore | undefined;
  /** The tool options (`--fs-root`, `--http-tools` as `http`). */
  readonly values: ToolOptionValues;
  readonly io: CommandIo;
}

/** The `ask` function for the MCP server, the agents it offers, and how to stop the controller. */
export interface ServeAsk {
  readonly ask: AskFunction;
  readonly agents: readonly { readonly name: string; readonly description?: string }[];
  close(): Promise<void>;
}

/** Builds the controller behind the `ask` tool. */
export function createServeAsk(options: ServeAskOptions): ServeAsk {
  const fsRoot = options.values['fs-root'];
  const builtin = builtinPlugin({
    ...(fsRoot === undefined ? {} : { fs: { root: resolve(options.io.cwd, fsRoot) } }),
    ...(options.values.http === true ? { http: {} } : {}),
  });
  const served = definePlugin({
    name: 'askloop-mcp-serve',
    specificationVersion: 'v1',
    ...(options.script === undefined ? {} : { providers: { scripted: createScriptedProvider({ models: scriptedModels(options.script, options.agents) }) } }),
    ...(options.source === undefined ? {} : { toolSources: [options.source] }),
    agents: Object.fromEntries(options.agents.map((agent) => [agent.name, agent])),
  });
  const loop = createAskLoop({
    plugins: [builtin, served],
    store: options.store ?? createMemoryTranscriptStore(),
    // The environment's keys out of what tools give back, so out of the answers this server sends (open-session-loop.ts).
    secrets: environmentSecretsOf(options.io.env, knownSecretNames(options.io)),
  });
  return {
    async ask(agent, task, signal) {
      const result = await loop.run({ agent, task, signal });
      const { status, reason, message, failure, turns } = result;
      return { status, reason, result: result.result, turns, message, failure, ...(options.store === undefined ? {} : { sid: result.sid }) };
    },
    agents: options.agents.map((agent) => ({ name: agent.name, ...(agent.description === undefined ? {} : { description: agent.description }) })),
    close: () => loop.close(),
  };
}
