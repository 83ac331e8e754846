/**
 * The floor of the added-latency figure: what a bare `node:http` request to
 * the same loopback model server adds over its nominal delay — the server's
 * own timer and loopback HTTP, with no SDK and no host behind it. Sent from
 * the benchmark's process, as many at once as the sessions it is compared
 * with, so the server and the network are as busy as they are for the host.
 */
import { Agent, request } from 'node:http';

/** Bare streamed chat requests to one loopback server, on kept-alive connections. */
export interface BareChatRequests {
  /** Sends one request and resolves with the length of the reply's body once all of it has arrived. */
  send(): Promise<number>;
  /** Closes the connections. */
  close(): void;
}

/** Bare `node:http` chat requests to the model server on `port`, each body `bodyBytes` long (the host's size). */
export function bareChatRequests(port: number, bodyBytes: number): BareChatRequests {
  const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  const body = JSON.stringify({ model: 'bench', stream: true, messages: [{ role: 'user', content: 'x'.repeat(Math.max(0, bodyBytes - 80)) }] });
  return {
    send: () =>
      new Promise<number>((resolve, reject) => {
        const outgoing = request({ host: '127.0.0.1', port, path: '/v1/chat/completions', method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (response) => {
          let length = 0;
          response.on('data', (chunk: Buffer) => (length += chunk.length));
          response.on('end', () => resolve(length));
          response.on('error', reject);
        });
        outgoing.on('error', reject);
        outgoing.end(body);
      }),
    close: () => agent.destroy(),
  };
}

/**
 * `clients` loops at once, each sending `requests` streamed chat requests one after another (a body of the size
 * the host sends: `bodyBytes`); returns each request's wall time minus `delayMs`.
 */
export async function bareHttpAdded(port: number, clients: number, requests: number, delayMs: number, bodyBytes: number): Promise<number[]> {
  const chat = bareChatRequests(port, bodyBytes);
  const once = chat.send;
  const added: number[] = [];
  try {
    // Each client's connection is opened by an unmeasured request first, as the SDK's are kept alive.
    await Promise.all(Array.from({ length: clients }, once));
    await Promise.all(
      Array.from({ length: clients }, async () => {
        for (let index = 0; index < requests; index += 1) {
          const started = performance.now();
          await once();
          added.push(performance.now() - started - delayMs);
        }
      }),
    );
  } finally {
    chat.close();
  }
  return added;
}
