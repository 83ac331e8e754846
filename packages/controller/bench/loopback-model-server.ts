/**
 * A loopback OpenAI-compatible Chat Completions server for the concurrency
 * benchmark, run as its own process (its sockets and memory are not the
 * host's): every `POST …/chat/completions` is answered after `DELAY_MS`
 * (default 200) with the reply streamed as SSE `chat.completion.chunk`
 * events, usage last, as the OpenAI API streams (the shape of the
 * providers' test fixture `chat-completion-stream.sse`), or as one JSON
 * completion when the request does not ask for a stream.
 *
 * Usage: `node loopback-model-server.ts` → prints `{"port":N}` on stdout;
 * the reply text is read from the REPLY environment variable, with every
 * `REQ_N` in it replaced by the request's number. `GET /last-request-bytes`
 * answers the size of the last chat request's body.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const delayMs = Number(process.env.DELAY_MS ?? 200);
const reply = process.env.REPLY ?? 'hello';
let served = 0;

function chunk(delta: Record<string, unknown>, finishReason: string | null, usage: unknown = null): string {
  const body = { id: `chatcmpl-${served}`, object: 'chat.completion.chunk', created: 1_700_000_000, model: 'bench', choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], usage };
  return `data: ${JSON.stringify(body)}\n\n`;
}

/** The SSE body of one streamed answer: `text` split as a model's tokens would arrive in a few writes. */
function events(text: string): string {
  const parts = text.match(/[\s\S]{1,256}/g) ?? [''];
  return [
    chunk({ role: 'assistant', content: '' }, null),
    ...parts.map((part) => chunk({ content: part }, null)),
    chunk({}, 'stop'),
    `data: ${JSON.stringify({ id: 'chatcmpl-usage', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'bench', choices: [], usage: { prompt_tokens: 500, completion_tokens: 200, total_tokens: 700 } })}\n\n`,
    'data: [DONE]\n\n',
  ].join('');
}

const completion = (text: string): string => JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'bench',
  choices: [{ index: 0, message: { role: 'assistant', content: text }, logprobs: null, finish_reason: 'stop' }],
  usage: { prompt_tokens: 500, completion_tokens: 200, total_tokens: 700 },
});

/** Bytes of the last chat request served (`GET /last-request-bytes`): the floor's requests are made as large. */
let lastRequestBytes = 0;

const server = createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/last-request-bytes') {
    response.end(String(lastRequestBytes));
    return;
  }
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (data: string) => (body += data));
  request.on('end', () => {
    served += 1;
    lastRequestBytes = Buffer.byteLength(body);
    // Every answer is a different program, as a model's are (no cache upstream of the host sees a repeat).
    const text = reply.replaceAll('REQ_N', `r${served}`);
    // A streaming request gets SSE, any other the whole completion as JSON.
    const stream = /"stream"\s*:\s*true/.test(body);
    setTimeout(() => {
      if (stream) {
        response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        response.end(events(text));
      } else {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(completion(text));
      }
    }, delayMs);
  });
});
server.maxConnections = 50_000;
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
});
// Ends with the benchmark, even one that crashed.
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
