/**
 * One MCP tool as an `@askloop/tools` definition: name under the server's
 * group, arguments from the input schema, effect and approval from the
 * annotations, the server's capability, and a handler that calls the server.
 */
import { defineTool, ToolError, type ToolDefinition, type ToolEffect, type ToolValue } from '@askloop/tools';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpApprovalMode } from '../config/server-config.ts';
import { AskLoopMcpError, isAskLoopMcpError } from '../errors/askloop-mcp-error.ts';
import { redactValue } from '../errors/redact-secrets.ts';
import { contentText, mapCallResult } from './map-call-result.ts';
import { cutServerText } from './cut-server-text.ts';
import type { McpConnection } from './mcp-connection.ts';
import { schemaArguments } from './schema-arguments.ts';

/** Default per-call timeout of MCP tools. */
export const DEFAULT_MCP_TIMEOUT_MS = 30_000;

/** Default time a server may take to start (spawn or reach it, and answer `initialize`). */
export const DEFAULT_MCP_START_TIMEOUT_MS = 30_000;

/** Default largest result, in UTF-8 bytes of its JSON: the interpreter's string limit. */
export const DEFAULT_MCP_MAX_RESULT_BYTES = 1_048_576;

/** The capability every tool of server `server` needs: `mcp:call:<server in lower case>`. */
export function mcpCapability(server: string): string {
  return `mcp:call:${server.toLowerCase()}`;
}

/** What the annotations say, with the MCP defaults for absent hints (not read-only, destructive, open world). */
export function annotationEffect(tool: Pick<Tool, 'annotations'>, approval: McpApprovalMode): { effect: ToolEffect; idempotent: boolean; requiresApproval: boolean } {
  const hints = tool.annotations ?? {};
  const readOnly = hints.readOnlyHint === true;
  const destructive = !readOnly && hints.destructiveHint !== false;
  const openWorld = hints.openWorldHint !== false;
  const effect: ToolEffect = readOnly ? 'read' : openWorld ? 'external' : 'write';
  const requiresApproval = approval === 'always' || (approval === 'destructive' && destructive);
  return { effect, idempotent: readOnly || hints.idempotentHint === true, requiresApproval };
}

/**
 * True when the server runs the tool only as a task (`execution.taskSupport: "required"`): it refuses a plain
 * tools/call (-32600), and this client makes no task-augmented calls, so every call would fail. Such a tool is left
 * out of its server's pack rather than listed, passed by the check and then failed. `optional` tools answer a plain call.
 */
export function requiresTaskExecution(tool: Pick<Tool, 'execution'>): boolean {
  return tool.execution?.taskSupport === 'required';
}

/** Options of {@link mcpToolDefinition}. */
export interface McpToolDefinitionOptions {
  readonly connection: McpConnection;
  /** The identifier the tool is called by (sanitized, unique within the server). */
  readonly identifier: string;
  readonly timeoutMs: number;
  readonly maxResultBytes: number;
  readonly approval: McpApprovalMode;
}

/** The longest error text of a server's passed on (then `…`). */
const MESSAGE_LIMIT = 1_000;

/**
 * The longest first line of a server's tool description (then `...`): the line every turn's catalogue shows, in
 * every prompt. Servers write a few hundred characters; one that wrote 100 KB put all of it in every turn.
 */
const SUMMARY_LIMIT = 1_000;
/** The longest description of a server's tool in all (its other lines show in `mcp tools` and the catalogue resource). */
const DESCRIPTION_LIMIT = 16_000;

/** A server's description bounded: its first line to {@link SUMMARY_LIMIT}, the whole to {@link DESCRIPTION_LIMIT}. */
function boundedDescription(text: string): string {
  const [first = '', ...rest] = text.split('\n');
  return cutServerText([cutServerText(first, SUMMARY_LIMIT, '...'), ...rest].join('\n'), DESCRIPTION_LIMIT, '...');
}

/** How much later than the server's `timeoutMs` the tool host's own deadline falls. */
const HOST_TIMEOUT_GRACE_MS = 1_000;

/**
 * `description` with the argument notes at the end of its first line, the one line the catalogue shows
 * (`… - Create multiple new entities. Arguments: entities: list of {name: string, …}`): an argument's
 * type must stay the one the check uses, so what it leaves out goes here.
 */
export function withArgumentNotes(description: string, notes: string): string {
  if (notes === '') return description;
  const [first = '', ...rest] = description.split('\n');
  const line = first.trimEnd();
  const separator = line === '' ? '' : /[.!?:;]$/.test(line) ? ' ' : '. ';
  return [`${line}${separator}Arguments: ${notes}`, ...rest].join('\n');
}

/** Builds the definition of MCP tool `tool` of `options.connection`'s server. */
export function mcpToolDefinition(tool: Tool, options: McpToolDefinitionOptions): ToolDefinition {
  const server = options.connection.name;
  const displayName = `tool.${server}.${options.identifier}`;
  const { args, properties, notes } = schemaArguments(tool.inputSchema, options.connection.redact);
  const required = new Set(args.filter((arg) => arg.required !== false).map((arg) => arg.name));
  // Through the server's redactor too: a description is model text (every prompt's catalogue, askloop://catalogue),
  // and a server may echo the credential it was given there as anywhere else.
  const own = boundedDescription(options.connection.redact((tool.description ?? tool.title ?? '').trim())) || `MCP tool ${tool.name} of server ${server}`;
  const description = options.connection.redact(withArgumentNotes(own, notes));
  const failure = (message: string, cause: unknown): ToolError => new ToolError('TOOL_FAILED', message, { tool: displayName, cause });
  return defineTool(
    {
      name: displayName,
      description,
      args,
      returns: 'any',
      capabilities: [mcpCapability(server)],
      ...annotationEffect(tool, options.approval),
      // The connection times the call out itself (a clear MCP_TIMEOUT naming server and tool, cancelled on the server);
      // the host's deadline, just later, is only a backstop.
      timeoutMs: options.timeoutMs + HOST_TIMEOUT_GRACE_MS,
    },
    async (bound, context): Promise<ToolValue> => {
      const callArguments: Record<string, unknown> = {};
      for (const [name, property] of properties) {
        const value = bound[name];
        // nil for an optional argument means "not given": the server applies its own default.
        if ((value === null || value === undefined) && !required.has(name)) continue;
        Object.defineProperty(callArguments, property, { value, enumerable: true, writable: true, configurable: true });
      }
      let result;
      try {
        result = await options.connection.callTool(tool.name, callArguments, { signal: context.signal, timeoutMs: options.timeoutMs });
      } catch (error) {
        if (!isAskLoopMcpError(error)) throw error;
        if (error.code === 'MCP_TIMEOUT') throw new ToolError('TOOL_TIMEOUT', error.message, { tool: displayName, cause: error });
        // The connection's errors mostly name the server and the tool already ("failed calling tool …"): said once.
        const named = error.message.startsWith(`MCP server '${server}'`);
        throw failure(named ? error.message : `MCP server '${server}' tool '${tool.name}': ${error.message}`, error);
      }
      if (result.isError === true) {
        // The server's own words, which may repeat the key it was configured with; scrubbed before the cut, so no half key
        // is left; the cut ends before a word, so no start of a key the host redacts later (the model's) is left either.
        const text = cutServerText(options.connection.redact(contentText(result)), MESSAGE_LIMIT);
        const cause = new AskLoopMcpError('MCP_TOOL_ERROR', text, { server, tool: tool.name });
        throw failure(`MCP server '${server}' tool '${tool.name}' returned an error: ${text}`, cause);
      }
      // A server may hand back the credentials it was started with (an echo, a debug dump): they never reach the
      // program, the transcript or the model. Only the configured values: the rest of a result is the program's data.
      // Bounded first: the redaction and the byte count below walk the whole value.
      const bounds = { tool: displayName, maxItems: context.maxResultItems, maxLength: context.maxResultLength };
      const value = redactValue(mapCallResult(result, bounds), options.connection.redactSecrets);
      // Checked here, before the value is copied into the sandbox, rather than by the interpreter's limits after the copy.
      const bytes = Buffer.byteLength(JSON.stringify(value));
      if (bytes > options.maxResultBytes) {
        const cause = new AskLoopMcpError('MCP_RESULT_TOO_LARGE', `result of ${bytes} bytes`, { server, tool: tool.name });
        throw failure(`MCP server '${server}' tool '${tool.name}' returned ${bytes} bytes, over the limit of ${options.maxResultBytes} (maxResultBytes)`, cause);
      }
      return value;
    },
  );
}
