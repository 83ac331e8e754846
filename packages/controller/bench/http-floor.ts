/**
 * The floor of the added-latency figure: what a bare `node:http` request to
 * the same loopback model server adds over its nominal delay — the server's
 * own timer and loopback HTTP, with no SDK and no host behind it. Sent from
 * the benchmark's process, as many at once as the sessions it is compared
 * with, so the server and the network are as busy as they are for the host.
 */
import { Agent, request } from 'node:http';

/**
 * `clients` loops at once, each sending `requests` streamed chat requests one after another (a body of the size
 * the host sends: `bodyBytes`); returns each request's wall time minus `delayMs`.
 */
export async function bareHttpAdded(port: number, clients: number, requests: number, delayMs: number, bodyBytes: number): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  const body = JSON.stringify({ model: 'bench', stream: true, messages: [{ role: 'user', content: 'x'.repeat(Math.max(0, bodyBytes - 80)) }] });
  const once = () =>
    new Promise<void>((resolve, reject) => {
      const outgoing = request({ host: '127.0.0.1', port, path: '/v1/chat/completions', method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (response) => {
        response.on('data', () => undefined);
        response.on('end', resolve);
        response.on('error', reject);
      });
      outgoing.on('error', reject);
      outgoing.end(body);
    });
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
    agent.destroy();
  }
  return added;
}
