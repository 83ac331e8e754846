/**
 * A loopback HTTP server scripted per test: each request gets the next
 * scripted response (status, headers, a body or chunks with delays, or no
 * answer at all), and every request is recorded for assertions.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer. */
export interface ScriptedResponse {
  status?: number;
  headers?: Record<string, string>;
  /** A string is sent verbatim; anything else as JSON. */
  body?: unknown;
  /** Sent one after another (SSE events, NDJSON lines), `chunkDelayMs` apart. */
  chunks?: readonly string[];
  chunkDelayMs?: number;
  /** Never answer (for timeout and abort tests). */
  hang?: boolean;
}

/** A request the server received. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json: unknown;
}

/** A running test server. */
export interface TestServer {
  url: string;
  requests: RecordedRequest[];
  /** TCP connections opened to the server so far (keep-alive reuse keeps this low). */
  readonly connections: number;
  /** Resolves when the n-th request (1-based) has arrived. */
  requestArrived(count: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1, port 0; the last scripted response repeats. */
export async function startTestServer(script: readonly ScriptedResponse[]): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer((request, response) => {
    void handle(request, response);
  });
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    let body = '';
    for await (const chunk of request) body += String(chunk);
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      json = undefined;
    }
    requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body, json });
    for (const waiter of waiters.filter((item) => requests.length >= item.count)) waiter.resolve();
    const scripted = script[Math.min(requests.length - 1, script.length - 1)] ?? { status: 500, body: 'no script' };
    await respond(scripted, response);
  };
  let connections = 0;
  server.on('connection', () => {
    connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get connections() {
      return connections;
    },
    requestArrived: (count) =>
      new Promise((resolve) => {
        if (requests.length >= count) resolve();
        else waiters.push({ count, resolve });
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function respond(scripted: ScriptedResponse, response: ServerResponse): Promise<void> {
  if (scripted.hang) return;
  const isText = typeof scripted.body === 'string' || scripted.chunks !== undefined;
  const headers = { 'content-type': isText && scripted.chunks === undefined ? 'text/plain' : 'application/json', ...scripted.headers };
  response.writeHead(scripted.status ?? 200, headers);
  if (scripted.chunks !== undefined) {
    for (const chunk of scripted.chunks) {
      if (response.destroyed) return;
      response.write(chunk);
      await new Promise((resolve) => setTimeout(resolve, scripted.chunkDelayMs ?? 1));
    }
    response.end();
    return;
  }
  if (scripted.body === undefined) response.end();
  else response.end(typeof scripted.body === 'string' ? scripted.body : JSON.stringify(scripted.body));
}
