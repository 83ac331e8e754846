/**
 * Reads an `--mcp-config FILE` (`{"servers": {name: {command,args,env,cwd} |
 * {url,headers}}}`, JSON, or YAML when the name ends in .yaml/.yml) into an MCP tool source, and builds the registry of one
 * turn from the built-in tools plus the MCP servers' current tool packs.
 * `${NAME}` references in a server's `env` and `headers` are filled from the
 * environment, as for `mcpServers:` in askloop.config.yaml.
 * `withMcpTools` is the hook `ns run`/`ns check` can call (see the report of
 * the MCP change); `askloop mcp …` uses it today.
 */
import type { RunBinding } from '../ns/tool-options.ts';
import { createReadStream } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { definePlugin, type AskLoopPlugin, type ToolSource } from '@askloop/controller';
import { createMcpToolSource, isAskLoopMcpError, type McpServerConfig, type McpServersConfig, type McpToolSource } from '@askloop/mcp';
import { createDefaultRegistry, createToolHost, isToolError, type ToolPack, type ToolRegistry } from '@askloop/tools';
import type { CommandIo } from '../../io.ts';
import { CliError } from '../../cli-error.ts';
import { fillServerEnvironment } from '../../config/server-environment.ts';
import { inServerFolder } from '../../config/server-folder.ts';
import { decodeUtf8Input } from '../../decode-text.ts';
import { readCapped } from '../../input/read-capped.ts';
import { parseMcpConfigText } from './parse-mcp-config-text.ts';
import { filledVariables } from '../../config/config-secret-names.ts';
import { noteSecretNames, knownSecretNames } from '../../known-secret-names.ts';
import { environmentRedaction } from '../../redact-secrets.ts';
import type { ToolOptionValues, ToolSetup } from '../ns/tool-options.ts';
import type { ConfigTools } from '../ns/config-tools.ts';

/** `parseArgs` option definition of `--mcp-config`. */
export const MCP_CONFIG_OPTION = { 'mcp-config': { type: 'string' } } as const;

/** Usage text of `--mcp-config`. */
export const MCP_CONFIG_USAGE = `  --mcp-config FILE add the tools of the MCP servers in FILE, a JSON file
                    {"servers": {"NAME": {"command": "…", "args": […], "env": {…}}
                                 | {"url": "http://…", "headers": {…}}}}
                    (or the same in YAML when FILE ends in .yaml or .yml).
                    \${NAME} in env and headers is read from the environment;
                    a key written into the file is refused.
                    Each tool is tool.NAME.<Tool> and needs --allow 'tool.NAME.*'
                    and --grant mcp:call:NAME.`;

/**
 * The most an `--mcp-config` file may be: 1 MiB. A config is a few hundred
 * bytes; the cap is there so `--mcp-config /dev/zero` (or a huge file) is
 * refused at once instead of being read into memory whole.
 */
export const MAX_MCP_CONFIG_BYTES = 1024 * 1024;

/** Reads and validates the config file (capped, strict UTF-8); a missing or invalid file is a usage error. `name` names the source (default `mcp`). */
export async function loadMcpToolSource(file: string, io: CommandIo, name?: string): Promise<McpToolSource> {
  let read: Awaited<ReturnType<typeof readCapped>>;
  try {
    // Always a file, never standard input: `mcp serve` speaks MCP on standard input.
    read = await readCapped(createReadStream(resolve(io.cwd, file), { highWaterMark: 64 * 1024 }), MAX_MCP_CONFIG_BYTES);
  } catch (error) {
    throw new CliError('CLI_FILE_UNREADABLE', `--mcp-config ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  if (!read.ok) {
    throw new CliError('CLI_INPUT_TOO_LARGE', `--mcp-config ${file}: larger than the 1 MiB limit of a config file (stopped reading after ${read.bytesRead} bytes)`, { file });
  }
  const servers = parseMcpConfigText(decodeUtf8Input(read.bytes, file), file);
  // What the servers' env and headers are handed (`${NAME}`) is a secret in whatever this command says from here on.
  noteSecretNames(io, filledVariables(servers, io.env));
  return createMcpToolSource({ servers: withEnvironment(servers, io.env, file, dirname(resolve(io.cwd, file))), ...(name === undefined ? {} : { name }) });
}

/**
 * The servers with `${NAME}` filled from `env` (`fillServerEnvironment`) and each stdio server's folder resolved
 * against the file's (`inServerFolder`); a problem is a usage error before any server starts.
 */
function withEnvironment(servers: McpServersConfig, env: Readonly<Record<string, string | undefined>>, file: string, fileDir: string): McpServersConfig {
  const out: Record<string, McpServerConfig> = {};
  for (const [name, server] of Object.entries(servers)) {
    const filled = fillServerEnvironment(server, env);
    const placed = 'problem' in filled ? filled : inServerFolder(filled.server, fileDir, env['HOME']);
    if ('problem' in placed) throw new CliError('CLI_OPTION_INVALID', `--mcp-config ${file}: servers.${name} ${placed.problem}`);
    out[name] = placed.server;
  }
  return out;
}

/**
 * A function giving the registry for the next run: the built-in tools the
 * options select plus the MCP packs, rebuilt only when a server's tool list
 * changed (the source returns the same pack objects otherwise).
 */
export function mcpRegistryFactory(source: McpToolSource, values: ToolOptionValues, io: CommandIo): () => Promise<ToolRegistry> {
  let last: { packs: readonly ToolPack[]; registry: ToolRegistry } | undefined;
  const fsRoot = values['fs-root'];
  return async () => {
    const packs = await source.toolPacks();
    if (last !== undefined && last.packs.length === packs.length && last.packs.every((pack, index) => pack === packs[index])) return last.registry;
    const registry = createDefaultRegistry({
      ...(fsRoot === undefined ? {} : { fs: { root: resolve(io.cwd, fsRoot) } }),
      ...(values.http === true ? { http: {} } : {}),
      extraPacks: packs,
    });
    last = { packs, registry };
    return registry;
  };
}

/**
 * Runs `list`, the servers' first listing, before a command relies on them.
 * A server that does not start or list is no usage error — the file was
 * right, the server failed — so it ends the command with its `MCP_` code
 * (exit 1), naming the server, after the servers are stopped.
 */
export async function firstListing<T>(source: McpToolSource, file: string, list: () => Promise<T>): Promise<T> {
  try {
    return await list();
  } catch (error) {
    await source.close();
    if (isAskLoopMcpError(error)) throw CliError.fromService(error, `--mcp-config ${file}: `);
    // A server's tool named as a built-in one (a server called `str` with a `ToUpper`): the registry's own code, exit 1,
    // with what to change (the README's TOOL_DUPLICATE).
    if (isToolError(error) && error.code === 'TOOL_DUPLICATE') throw CliError.fromService({ code: error.code, message: `${error.message}; give the server another name in the file` }, `--mcp-config ${file}: `);
    // Anything else is about the file's servers as configured.
    throw new CliError('CLI_OPTION_INVALID', `--mcp-config ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A tool setup with the MCP servers' tools added, and the function that stops the servers. */
export interface McpToolSetup {
  readonly setup: ToolSetup;
  /** Stops the MCP servers; call it when the command ends, or the process stays alive for them. */
  close(): Promise<void>;
}

/**
 * The hook for `ns run`/`ns check`/`ns tools`: without tool sources returns
 * `setup` unchanged; with `--mcp-config FILE` or the sources of `--config
 * FILE`'s plugins (`config`: its MCP servers, a plugin's own sources),
 * starts them, lists their tools once and returns a setup whose registry (and
 * hosts) include them beside `setup.configPacks`. A server that fails to
 * start or list is reported with its `MCP_` code (exit 1), naming the option
 * and the server; a server's tool named as another tool is `TOOL_DUPLICATE` (exit 1).
 */
export async function withMcpTools(setup: ToolSetup, values: ToolOptionValues & { 'mcp-config'?: string | undefined }, io: CommandIo, config?: Pick<ConfigTools, 'file' | 'sources'> & Partial<Pick<ConfigTools, 'http'>>): Promise<McpToolSetup> {
  const file = values['mcp-config'];
  const sources: { readonly source: ToolSource; readonly option: string }[] = (config?.sources ?? []).map((source) => ({ source, option: `--config ${config?.file}` }));
  if (file !== undefined) sources.push({ source: await loadMcpToolSource(file, io), option: `--mcp-config ${file}` });
  if (sources.length === 0) return { setup, close: async () => undefined };
  const close = async (): Promise<void> => {
    for (const { source } of sources) await source.close?.();
  };
  const listed: ToolPack[] = [];
  for (const { source, option } of sources) {
    try {
      listed.push(...(await source.toolPacks()));
    } catch (error) {
      await close();
      if (isAskLoopMcpError(error)) throw CliError.fromService(error, `${option}: `);
      throw new CliError('CLI_OPTION_INVALID', `${option}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  let registry: ToolRegistry;
  try {
    registry = createDefaultRegistry({
      ...(values['fs-root'] === undefined ? {} : { fs: { root: resolve(io.cwd, values['fs-root']) } }),
      ...(values.http === true ? { http: { ...config?.http } } : {}),
      extraPacks: [...setup.configPacks, ...listed],
    });
  } catch (error) {
    await close();
    const options = sources.map(({ option }) => option).filter((option, index, all) => all.indexOf(option) === index).join(', ');
    // A server's tool named as a built-in one, or as a plugin's: the registry's own code, exit 1, as firstListing says it.
    if (isToolError(error) && error.code === 'TOOL_DUPLICATE') throw CliError.fromService({ code: error.code, message: `${error.message}; give the server another name in the file` }, `${options}: `);
    throw new CliError('CLI_OPTION_INVALID', `${options}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const redaction = environmentRedaction(io.env, knownSecretNames(io));
  const hostFor = (turn: number, run?: RunBinding) =>
    createToolHost({ registry, policy: setup.policy, session: 'askloop-cli', turn, ...(run === undefined ? {} : { ...run, stores: setup.stores(), ...redaction }) });
  return { setup: { ...setup, registry, catalog: hostFor(0).catalog, hostFor }, close };
}

/**
 * The plugin of `--mcp-config FILE` for the loop commands (`run`, `resume`,
 * `approve`, `deny`, `replay`): the servers as one tool source, listed by the
 * controller before each turn and stopped by `loop.close()`. Named
 * `mcp-config`, so it can sit beside the `mcp` plugin of askloop.config.yaml.
 * Without FILE, no plugin.
 */
export async function mcpConfigPlugins(file: string | undefined, io: CommandIo): Promise<AskLoopPlugin[]> {
  if (file === undefined) return [];
  const source = await loadMcpToolSource(file, io, 'mcp-config');
  return [definePlugin({ name: 'mcp-config', specificationVersion: 'v1', toolSources: [source] })];
}
