/**
 * `client.connect(transport)` (spawn or reach the server, then `initialize`)
 * bounded by the server's `startTimeoutMs` and stoppable by a signal.
 *
 * The deadline is ours rather than the SDK's `connect(transport, { timeout,
 * signal })`: on its timeout the SDK would send `notifications/cancelled` for
 * `initialize` (which MCP says a client must not cancel) and close the
 * transport without waiting, so a stdio child that ignores the end of its
 * stdin could outlive the error, or the CLI. Here the connection is closed
 * and the close awaited (stdin ended, then SIGTERM, then SIGKILL, as the SDK
 * closes a child) before the failure is reported.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** The reason a start was given up: no answer to `initialize` within `startTimeoutMs`. */
export class StartTimeout extends Error {
  readonly timeoutMs: number;

  constructor(timeoutMs: number) {
    super(`no answer to initialize within ${timeoutMs} ms (startTimeoutMs)`);
    this.name = 'StartTimeout';
    this.timeoutMs = timeoutMs;
  }
}

/**
 * Connects `client` over `transport`; rejects with {@link StartTimeout} after
 * `startTimeoutMs`, with `stop.reason` when `stop` aborts, or with the SDK's error.
 * After a timeout or a stop the connection is closed (the child stopped)
 * before this settles.
 */
export async function connectWithin(client: Client, transport: Transport, timeoutMs: number, stop: AbortSignal): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const given = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new StartTimeout(timeoutMs)), timeoutMs);
    onAbort = () => reject(stop.reason);
    if (stop.aborted) onAbort();
    else stop.addEventListener('abort', onAbort, { once: true });
  });
  const connecting = client.connect(transport);
  // Rejects with "Connection closed" once we close below; nobody waits for it then.
  connecting.catch(() => undefined);
  try {
    await Promise.race([connecting, given]);
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) stop.removeEventListener('abort', onAbort);
  }
}
