/**
 * A loopback OpenAI-compatible Chat Completions server for the request
 * benchmark, run as its own process (started with `fork`, so its sockets and
 * heap are not counted in the measured process). It answers with the
 * providers' recorded wire formats (`test/__fixtures__/openai/`): one JSON
 * completion, or the SSE stream when the request asks for one.
 *
 * IPC: it sends `{ port }` once listening. `{ hold: n }` makes it keep every
 * request unanswered until `n` are held, then send `{ held: n }`; `{ release:
 * true }` answers all of them and goes back to answering at once.
 */
import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const fixture = (name: string): string => readFileSync(new URL(`../test/__fixtures__/openai/${name}`, import.meta.url), 'utf8');
const completion = fixture('chat-completion.json');
const stream = fixture('chat-completion-stream.sse');

let holdFor = 0;
const held: { response: ServerResponse; streamed: boolean }[] = [];

function answer(response: ServerResponse, streamed: boolean): void {
  response.writeHead(200, { 'content-type': streamed ? 'text/event-stream' : 'application/json' });
  response.end(streamed ? stream : completion);
}

const server = createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => (body += chunk));
  request.on('end', () => {
    const streamed = body.includes('"stream":true');
    if (holdFor === 0) return answer(response, streamed);
    held.push({ response, streamed });
    if (held.length === holdFor) process.send?.({ held: held.length });
  });
});
// Many sockets stay open between rounds: do not let the server's idle timeout close them under the client.
server.keepAliveTimeout = 60_000;

process.on('message', (message: { hold?: number; release?: boolean }) => {
  if (message.hold !== undefined) holdFor = message.hold;
  if (message.release === true) {
    holdFor = 0;
    for (const { response, streamed } of held.splice(0)) answer(response, streamed);
  }
});
process.on('disconnect', () => server.close(() => process.exit(0)));

server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
