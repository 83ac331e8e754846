/**
 * A loopback OpenAI-compatible Chat Completions server for the request
 * benchmark, run as its own process (started with `fork`, so its sockets and
 * heap are not counted in the measured process). It answers with the
 * providers' recorded wire formats (`test/__fixtures__/openai/`): one JSON
 * completion, or the SSE stream when the request asks for one.
 *
 * Under `/events-<n>/` (a base URL of `http://127.0.0.1:<port>/events-<n>/v1`)
 * a streamed answer is a 1 KiB reply in `n` content events of the same
 * `chat.completion.chunk` shape instead, as a model streaming token by token
 * sends it (n = 256 is about one event per token).
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

/** The reply of the `/events-<n>/` streams: 1 KiB of program-like text. */
const REPLY = 'command\n  set x = tool.str.ToUpper("abc")\n  emit "x = " + x\nendcommand\n'.repeat(16).slice(0, 1024);

/** One `chat.completion.chunk` event. */
const event = (delta: Record<string, unknown>, finishReason: string | null, usage: unknown = null): string =>
  `data: ${JSON.stringify({ id: 'chatcmpl-events', object: 'chat.completion.chunk', created: 1_694_268_190, model: 'gpt-4o-mini', choices: usage === null ? [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] : [], usage })}\n\n`;

const eventStreams = new Map<number, string>();
/** The SSE body of REPLY in `count` content events (then the finish, the usage and `[DONE]`), built once per count. */
function streamInEvents(count: number): string {
  let body = eventStreams.get(count);
  if (body === undefined) {
    const size = Math.ceil(REPLY.length / count);
    const parts = Array.from({ length: count }, (_, index) => REPLY.slice(index * size, (index + 1) * size));
    body = [
      event({ role: 'assistant', content: '' }, null),
      ...parts.map((content) => event({ content }, null)),
      event({}, 'stop'),
      event({}, null, { prompt_tokens: 30, completion_tokens: 256, total_tokens: 286 }),
      'data: [DONE]\n\n',
    ].join('');
    eventStreams.set(count, body);
  }
  return body;
}

let holdFor = 0;
const held: { response: ServerResponse; streamed: boolean; events: number | undefined }[] = [];

function answer(response: ServerResponse, streamed: boolean, events: number | undefined): void {
  response.writeHead(200, { 'content-type': streamed ? 'text/event-stream' : 'application/json' });
  response.end(!streamed ? completion : events === undefined ? stream : streamInEvents(events));
}

const server = createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => (body += chunk));
  request.on('end', () => {
    const streamed = body.includes('"stream":true');
    const events = /^\/events-(\d+)\//.exec(request.url ?? '')?.[1];
    const count = events === undefined ? undefined : Number(events);
    if (holdFor === 0) return answer(response, streamed, count);
    held.push({ response, streamed, events: count });
    if (held.length === holdFor) process.send?.({ held: held.length });
  });
});
// Many sockets stay open between rounds: do not let the server's idle timeout close them under the client.
server.keepAliveTimeout = 60_000;

process.on('message', (message: { hold?: number; release?: boolean }) => {
  if (message.hold !== undefined) holdFor = message.hold;
  if (message.release === true) {
    holdFor = 0;
    for (const { response, streamed, events } of held.splice(0)) answer(response, streamed, events);
  }
});
process.on('disconnect', () => server.close(() => process.exit(0)));

server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
