/**
 * One configured MCP server as a connection that starts on first use, is
 * reused across turns, and starts again on the next use after the server
 * died (stdio) or a request failed at the transport level (HTTP). Nothing
 * here retries a call: a call in flight when the server dies fails, because
 * the server may already have acted on it.
 *
 * Every message built from what the server or its transport said passes
 * through the server's redactor: its `env` and `headers` values never show.
 */
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, ToolListChangedNotificationSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { isHttpServerConfig, type McpServerConfig } from '../config/server-config.ts';
import { AskLoopMcpError } from '../errors/askloop-mcp-error.ts';
import { createRedact, redactError, serverSecrets, type Redact } from '../errors/redact-secrets.ts';
import { PACKAGE_VERSION } from '../package-version.ts';
import { boundedFetch } from './bounded-fetch.ts';
import { connectWithin, StartTimeout } from './connect-within.ts';
import { describeInvalidAnswer, isInvalidAnswer } from './invalid-answer.ts';

/** Commands that fetch a package before they run it: a silent, slow start may be that fetch. */
const PACKAGE_RUNNERS: ReadonlySet<string> = new Set(['npx', 'pnpx', 'bunx', 'uvx', 'pipx']);

/** The version string this client announces in `initialize`. */
export const CLIENT_INFO = { name: 'askloop', version: PACKAGE_VERSION } as const;

const STDERR_TAIL = 2_000;
/** How long a failed call waits for a dead server's stderr to end, so its last words are in the error. */
const STDERR_DRAIN_MS = 200;

/**
 * How many times `maxResultBytes` one message may be: a result's value is measured as JSON, and its message can
 * carry it twice (a tool's `structuredContent` and the same as JSON text), escaped once more.
 */
const MESSAGE_PER_RESULT_BYTES = 4;

/**
 * The most a server may send in one message: 4 × `maxResultBytes`, at least the SDK's 10 MiB (its stdio limit).
 * Past it a stdio transport stops reading and closes the connection (stopping the server), and an HTTP answer's body
 * fails (`boundedFetch`) and the connection is closed, rather than buffer without end.
 */
export function answerLimit(maxResultBytes: number): number {
  return Math.max(STDIO_DEFAULT_MAX_BUFFER_SIZE, MESSAGE_PER_RESULT_BYTES * maxResultBytes);
}

/** The SDK's words (shared/stdio.js, ReadBuffer) when a stdio message passes its limit: the transport closes next. */
const OVERFLOW = /^ReadBuffer exceeded maximum size/;

/** A server's connection state, for status displays and tests. */
export interface McpServerStatus {
  readonly connected: boolean;
  /** The child's process id (stdio servers while connected). */
  readonly pid?: number;
  /** How many times the server was (re)started. */
  readonly starts: number;
}

/** Options of one call. */
export interface McpCallOptions {
  /** Aborting cancels the request on the server (`notifications/cancelled`). */
  readonly signal?: AbortSignal;
  readonly timeoutMs: number;
}

/** A lazily started, restartable connection to one server. */
export interface McpConnection {
  readonly name: string;
  listTools(): Promise<Tool[]>;
  callTool(tool: string, args: Record<string, unknown>, options: McpCallOptions): Promise<CallToolResult>;
  status(): McpServerStatus;
  /** Scrubs this server's credentials (and credential-looking text) from a text the server produced. */
  redact: Redact;
  /** Scrubs only this server's configured credentials (its `env` and `headers` values): for successful results, which are data. */
  redactSecrets: Redact;
  close(): Promise<void>;
}

/** Options of {@link createMcpConnection}. */
export interface McpConnectionOptions {
  /** How long each tools/list page may take. */
  readonly timeoutMs: number;
  /** How long starting the server (spawn or reach it, and `initialize`) may take. */
  readonly startTimeoutMs: number;
  /** The largest result a call may give (UTF-8 bytes of its JSON): a message may be {@link answerLimit} of it. */
  readonly maxResultBytes: number;
  /** Runs when the server sends `notifications/tools/list_changed`. */
  readonly onListChanged: () => void;
}

interface Live {
  readonly client: Client;
  readonly transport: StdioClientTransport | StreamableHTTPClientTransport;
  /** Set when the server wrote a message past the stdio limit: why the connection then closed. */
  overflowed: boolean;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Whether `error` is the SDK's own timeout of a request sent at `sentAt` with `limitMs`: its code, -32001, is also a
 * server's to answer with (an SDK-built server passes on an upstream's timeout so), and such an answer comes early and
 * says what happened. (Node's timers never fire early; the 1 ms allows for their coarser clock.)
 */
const timedOut = (error: unknown, sentAt: number, limitMs: number): boolean =>
  error instanceof McpError && error.code === ErrorCode.RequestTimeout && performance.now() - sentAt >= limitMs - 1;

/**
 * Waits until a stdio server's stderr has ended (its last words read), at
 * most STDERR_DRAIN_MS: the pipe closing and the call failing race each
 * other. A server over HTTP has no stderr.
 */
async function stderrDrained(transport: StdioClientTransport | StreamableHTTPClientTransport): Promise<void> {
  // The SDK types it as a Stream; with `stderr: 'pipe'` it is a readable PassThrough.
  const stderr = transport instanceof StdioClientTransport ? (transport.stderr as Readable | null) : null;
  if (stderr === null || stderr.readableEnded || stderr.destroyed) return;
  await new Promise<void>((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      stderr.off('end', done).off('close', done);
      resolve();
    };
    const timer = setTimeout(done, STDERR_DRAIN_MS);
    stderr.once('end', done).once('close', done);
  });
}

/**
 * Opens nothing yet: the server starts on the first `listTools`/`callTool`,
 * within `options.startTimeoutMs`.
 */
export function createMcpConnection(name: string, config: McpServerConfig, options: McpConnectionOptions): McpConnection {
  const { timeoutMs, startTimeoutMs, onListChanged } = options;
  const messageLimit = answerLimit(options.maxResultBytes);
  /** What closing a connection does to the server, in the words of its kind. */
  const closing = isHttpServerConfig(config) ? 'the connection was closed (the next call connects again)' : 'the server was stopped (the next call starts it again)';
  /** What an answer past the limit is told, after "sent an answer", for a call and a tool list alike. */
  const pastLimit = `over ${messageLimit} bytes, the most this client reads in one message from this server (${MESSAGE_PER_RESULT_BYTES} × maxResultBytes, at least 10 MiB); ${closing}`;
  const secrets = serverSecrets(config);
  const redact = createRedact(secrets);
  const redactSecrets = createRedact(secrets, { patterns: false });
  let live: Promise<Live> | undefined;
  let current: Live | undefined;
  let closed = false;
  let starts = 0;
  let stderrTail = '';
  /** Characters the server has written on stderr in all, so a call can quote only what came after it began. */
  let stderrWritten = 0;
  /** Aborts the start in progress, if any, when the connection is closed. */
  let stopStart: AbortController | undefined;

  /** An error whose message holds the server's words: the message and the cause are both scrubbed. */
  const failure = (code: 'MCP_CONNECT_FAILED' | 'MCP_LIST_FAILED' | 'MCP_REQUEST_FAILED', message: string, error: unknown, tool?: string): AskLoopMcpError => {
    redactError(error, redact);
    return new AskLoopMcpError(code, redact(message), { server: name, ...(tool === undefined ? {} : { tool }), cause: error });
  };

  // Scrubbed before the cut, so a key cut in half at the start of the tail is not left behind.
  // `since` (a count of `stderrWritten`): only what the server wrote after it, not its start-up lines.
  const tail = (since = 0): string => {
    const fresh = stderrWritten - since;
    const text = (fresh >= stderrTail.length ? stderrTail : stderrTail.slice(stderrTail.length - fresh)).trim();
    return text === '' ? '' : `; server stderr: ${redact(text).slice(-500)}`;
  };

  /**
   * A server started by a package runner (npx, uvx, …) that timed out having written nothing may have spent the time
   * fetching its package (a registry that needs a proxy or a CA the runner was not given retries in silence).
   */
  const silentFetcherHint = (): string => {
    if (isHttpServerConfig(config) || stderrTail.trim() !== '') return '';
    const runner = basename(config.command).replace(/\.(cmd|exe)$/i, '');
    if (!PACKAGE_RUNNERS.has(runner)) return '';
    return `. It wrote nothing: ${runner} may still have been fetching the server's package (run the command by hand to see; pass the proxy or CA variables it needs, such as HTTPS_PROXY or NODE_EXTRA_CA_CERTS, in the server's "env", or raise startTimeoutMs)`;
  };

  /** `onOverflow` is told when an HTTP server's answer passes the message limit (a stdio one's reaches `client.onerror`). */
  const makeTransport = (onOverflow: () => void): StdioClientTransport | StreamableHTTPClientTransport => {
    if (isHttpServerConfig(config)) {
      return new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: { ...config.headers } }, fetch: boundedFetch(messageLimit, onOverflow) });
    }
    const transport = new StdioClientTransport({
      command: config.command,
      args: [...(config.args ?? [])],
      ...(config.env === undefined ? {} : { env: { ...config.env } }),
      ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
      stderr: 'pipe',
      maxBufferSize: messageLimit,
    });
    // Kept for connect errors; a bounded tail so a chatty server cannot grow memory.
    transport.stderr?.on('data', (chunk: Buffer | string) => {
      const text = chunk.toString();
      stderrWritten += text.length;
      stderrTail = (stderrTail + text).slice(-STDERR_TAIL);
    });
    return transport;
  };

  const start = async (): Promise<Live> => {
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    // An HTTP answer past the limit fails its body; closing the connection then fails the calls waiting on it at once
    // (an event stream's failure reaches no call), as the stdio transport closes on its own.
    const transport = makeTransport(() => {
      entry.overflowed = true;
      void client.close().catch(() => undefined);
    });
    const entry: Live = { client, transport, overflowed: false };
    // The transport reports a message past its limit here, then closes: the calls in flight only see "Connection closed".
    client.onerror = (error) => {
      if (OVERFLOW.test(error.message)) entry.overflowed = true;
    };
    client.onclose = () => {
      // Only forget the connection this callback belongs to, not a newer one.
      if (current === entry) {
        current = undefined;
        live = undefined;
      }
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => onListChanged());
    starts += 1;
    stderrTail = '';
    const stop = new AbortController();
    stopStart = stop;
    try {
      await connectWithin(client, transport, startTimeoutMs, stop.signal);
    } catch (error) {
      // connectWithin closed a timed-out or stopped start; this closes one that failed on its own.
      await client.close().catch(() => undefined);
      if (stop.signal.aborted) throw new AskLoopMcpError('MCP_CLOSED', `MCP server '${name}': the tool source was closed while the server was starting`, { server: name });
      const reason = error instanceof StartTimeout ? `${error.message}; the server was stopped${silentFetcherHint()}` : messageOf(error);
      throw failure('MCP_CONNECT_FAILED', `MCP server '${name}' did not start: ${reason}${tail()}`, error);
    } finally {
      if (stopStart === stop) stopStart = undefined;
    }
    current = entry;
    return entry;
  };

  const connect = (): Promise<Live> => {
    if (closed) return Promise.reject(new AskLoopMcpError('MCP_CLOSED', `MCP server '${name}': the tool source is closed`, { server: name }));
    if (live === undefined) {
      const attempt = start();
      live = attempt;
      attempt.catch(() => {
        if (live === attempt) live = undefined;
      });
    }
    return live;
  };

  /** Drops a connection whose transport failed, so the next use starts again. */
  const drop = async (entry: Live): Promise<void> => {
    if (current === entry) {
      current = undefined;
      live = undefined;
    }
    await entry.client.close().catch(() => undefined);
  };

  /**
   * A JSON-RPC error from a live peer leaves the connection usable; anything else (closed pipe, refused socket) does not.
   * The SDK's own "Connection closed" has code -32000, which JSON-RPC also leaves to servers for their errors: only
   * when the client has lost its transport (the SDK drops it as it closes) is it the connection's end — a server's
   * -32000 answer ("database is locked") must not cost it its process and what that holds in memory. Nor must an
   * answer that arrived whole but is not an MCP result (the SDK's schema refused it): the peer is there.
   */
  const transportFailed = (error: unknown, entry: Live): boolean =>
    error instanceof McpError ? error.code === ErrorCode.ConnectionClosed && entry.client.transport === undefined : !isInvalidAnswer(error);

  return {
    name,
    async listTools() {
      const entry = await connect();
      const tools: Tool[] = [];
      let cursor: string | undefined;
      let sentAt = 0;
      try {
        do {
          sentAt = performance.now();
          const page = await entry.client.listTools(cursor === undefined ? {} : { cursor }, { timeout: timeoutMs });
          tools.push(...page.tools);
          cursor = page.nextCursor;
        } while (cursor !== undefined);
      } catch (error) {
        if (transportFailed(error, entry)) await drop(entry);
        const reason =
          timedOut(error, sentAt, timeoutMs)
            ? `no answer within ${timeoutMs} ms (timeoutMs)`
            : isInvalidAnswer(error)
              ? `its answer is not an MCP tool list (${describeInvalidAnswer(error)})`
              : entry.overflowed
                ? `it sent an answer ${pastLimit}`
                : messageOf(error);
        throw failure('MCP_LIST_FAILED', `MCP server '${name}' failed tools/list: ${reason}${tail()}`, error);
      }
      return tools;
    },
    async callTool(tool, args, options) {
      const entry = await connect();
      const calledAt = stderrWritten;
      const sentAt = performance.now();
      try {
        // The SDK's timeout sends notifications/cancelled to the server when it passes; so does aborting `signal`.
        const result = await entry.client.callTool({ name: tool, arguments: args }, undefined, {
          ...(options.signal === undefined ? {} : { signal: options.signal }),
          timeout: options.timeoutMs,
        });
        return result as CallToolResult;
      } catch (error) {
        if (options.signal?.aborted === true) throw options.signal.reason;
        if (timedOut(error, sentAt, options.timeoutMs)) {
          throw new AskLoopMcpError('MCP_TIMEOUT', `MCP server '${name}' tool '${tool}' did not answer within ${options.timeoutMs} ms; the call was cancelled on the server`, { server: name, tool, cause: error });
        }
        if (isInvalidAnswer(error)) {
          throw failure('MCP_REQUEST_FAILED', `MCP server '${name}' answered tool '${tool}' with a result that is not an MCP tool result (${describeInvalidAnswer(error)}); a fault of the server, which keeps running`, error, tool);
        }
        if (!transportFailed(error, entry)) throw failure('MCP_REQUEST_FAILED', `MCP server '${name}' failed calling tool '${tool}': ${messageOf(error)}`, error, tool);
        if (entry.overflowed) {
          await drop(entry);
          throw new AskLoopMcpError('MCP_RESULT_TOO_LARGE', `MCP server '${name}' tool '${tool}' sent an answer ${pastLimit}`, { server: name, tool, cause: error });
        }
        // The server went away mid-call: what it said on stderr before it died is usually why.
        await stderrDrained(entry.transport);
        await drop(entry);
        throw failure('MCP_REQUEST_FAILED', `MCP server '${name}' failed calling tool '${tool}': ${messageOf(error)}${tail(calledAt)}`, error, tool);
      }
    },
    status() {
      const pid = current?.transport instanceof StdioClientTransport ? current.transport.pid : null;
      return { connected: current !== undefined, ...(pid === null || pid === undefined ? {} : { pid }), starts };
    },
    redact,
    redactSecrets,
    async close() {
      closed = true;
      // A start in progress stops now (its child closed) rather than running out its timeout.
      stopStart?.abort();
      const pending = live;
      live = undefined;
      current = undefined;
      const entry = await pending?.catch(() => undefined);
      await entry?.client.close().catch(() => undefined);
    },
  };
}
