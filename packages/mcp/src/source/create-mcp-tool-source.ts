/**
 * `createMcpToolSource({ servers })`: MCP servers as tool packs, one per
 * server, refreshed between turns when a server says its tool list changed.
 */
import { defineToolPack, type ToolPack } from '@askloop/tools';
import { validateServerConfig, type McpServersConfig } from '../config/server-config.ts';
import { AskLoopMcpError } from '../errors/askloop-mcp-error.ts';
import { createMcpConnection, type McpConnection, type McpServerStatus } from './mcp-connection.ts';
import { DEFAULT_MCP_MAX_RESULT_BYTES, DEFAULT_MCP_START_TIMEOUT_MS, DEFAULT_MCP_TIMEOUT_MS, mcpToolDefinition, requiresTaskExecution } from './mcp-tool-definition.ts';
import { sanitizeNames } from './sanitize-name.ts';

/** Options of {@link createMcpToolSource}. */
export interface McpToolSourceOptions {
  /** Servers by name; a name becomes the tool group (`tool.<name>.<Tool>`) and the capability scope (`mcp:call:<name>`). */
  readonly servers: McpServersConfig;
  /** The source's name, as the controller's plugin resolution sees it (default `mcp`). */
  readonly name?: string;
}

/** MCP servers as a source of tool packs. */
export interface McpToolSource {
  /** Names the source in the controller's errors (`toolSources.<name>.toolPacks`). */
  readonly name: string;
  /**
   * One pack (`mcp.<server>`) per server, without the tools a server runs only
   * as tasks (`execution.taskSupport: "required"`), which a plain call cannot
   * reach. Lists (starting them when needed) only servers never listed or
   * whose list changed; the others' packs are handed back as they were, so a
   * server that died after its listing is started by the next call, not here.
   * Call it before each turn and build the turn's registry from the result.
   */
  toolPacks(): Promise<ToolPack[]>;
  /** Lists every server again, whatever the stale flags say. */
  refresh(): Promise<ToolPack[]>;
  /** True when some server announced a changed tool list since the last listing. */
  readonly stale: boolean;
  /** Connection state per server. */
  status(): Record<string, McpServerStatus>;
  /** Closes every connection (stops stdio servers). The source cannot be used afterwards. */
  close(): Promise<void>;
}

interface ServerEntry {
  readonly connection: McpConnection;
  readonly timeoutMs: number;
  readonly maxResultBytes: number;
  readonly approval: 'destructive' | 'always' | 'never';
  pack: ToolPack | undefined;
  stale: boolean;
}

/** Builds a source; nothing starts until the first `toolPacks()` or call. Throws `MCP_CONFIG_INVALID`. */
export function createMcpToolSource(options: McpToolSourceOptions): McpToolSource {
  const entries = new Map<string, ServerEntry>();
  const seen = new Set<string>();
  for (const [name, raw] of Object.entries(options.servers)) {
    const config = validateServerConfig(name, raw);
    if (seen.has(name.toLowerCase())) throw new AskLoopMcpError('MCP_CONFIG_INVALID', `MCP config: two servers are named '${name}' (names are case-insensitive)`);
    seen.add(name.toLowerCase());
    const timeoutMs = config.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS;
    const maxResultBytes = config.maxResultBytes ?? DEFAULT_MCP_MAX_RESULT_BYTES;
    const entry: ServerEntry = {
      connection: createMcpConnection(name, config, {
        timeoutMs,
        startTimeoutMs: config.startTimeoutMs ?? DEFAULT_MCP_START_TIMEOUT_MS,
        maxResultBytes,
        onListChanged: () => {
          entry.stale = true;
        },
      }),
      timeoutMs,
      maxResultBytes,
      approval: config.approval ?? 'destructive',
      pack: undefined,
      stale: true,
    };
    entries.set(name, entry);
  }
  let closed = false;

  const list = async (entry: ServerEntry): Promise<ToolPack> => {
    // Cleared before listing: a change announced while we list marks it stale again.
    entry.stale = false;
    try {
      // Left out before the names are made, so a task-only tool takes no name (`_2` suffix) from one that is callable.
      const tools = (await entry.connection.listTools()).filter((tool) => !requiresTaskExecution(tool));
      const identifiers = sanitizeNames(tools.map((tool) => tool.name));
      const definitions = tools.map((tool, index) =>
        mcpToolDefinition(tool, { connection: entry.connection, identifier: identifiers[index] as string, timeoutMs: entry.timeoutMs, maxResultBytes: entry.maxResultBytes, approval: entry.approval }),
      );
      entry.pack = defineToolPack(`mcp.${entry.connection.name}`, definitions);
      return entry.pack;
    } catch (error) {
      entry.stale = true;
      throw error;
    }
  };

  const packs = async (force: boolean): Promise<ToolPack[]> => {
    if (closed) throw new AskLoopMcpError('MCP_CLOSED', 'the MCP tool source is closed');
    return Promise.all([...entries.values()].map((entry) => (force || entry.stale || entry.pack === undefined ? list(entry) : Promise.resolve(entry.pack))));
  };

  return {
    name: options.name ?? 'mcp',
    toolPacks: () => packs(false),
    refresh: () => packs(true),
    get stale() {
      return [...entries.values()].some((entry) => entry.stale);
    },
    status: () => Object.fromEntries([...entries].map(([name, entry]) => [name, entry.connection.status()])),
    async close() {
      closed = true;
      await Promise.all([...entries.values()].map((entry) => entry.connection.close()));
    },
  };
}
