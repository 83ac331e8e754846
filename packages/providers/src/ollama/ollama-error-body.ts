/**
 * The `fetch` the `ollama` client is given: `attemptFetch`, with every error
 * response handed over as `{"error": <its message>}`. The client reads such
 * a body quietly; any other it reads after a `console.log` ("Getting text
 * from response" for a body that is not JSON — a proxy's 502 page, Ollama's
 * own plain `404 page not found` —, "Failed to parse error response as JSON"
 * for one labelled JSON that is not), which lands on the host's standard
 * output (and breaks `askloop run --json`); and it takes `error` as the
 * message whatever it is, so an error object (a gateway's
 * `{"error": {"message", "type"}}`) read "[object Object]".
 */
import { attemptFetch } from '../call/attempt-fetch.ts';

/**
 * The message a line that is not JSON is replaced with. The client would print such a line with `console.warn`
 * (raw, whatever it holds: a proxy's page, an echoed header) and drop it, so a corrupted stream passed as whole.
 */
export const NOT_JSON_LINE = 'a line of the stream is not JSON';

/** `attemptFetch` with error bodies rewritten as `{"error": <message>}`, and a stream's lines that are not JSON as error lines. */
export async function ollamaFetch(input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]): Promise<Response> {
  const response = await attemptFetch(input, init);
  if (response.ok) {
    // Only a stream of lines (Ollama's `application/x-ndjson`): one JSON answer may be spread over lines.
    const lines = response.body !== null && (response.headers.get('content-type') ?? '').includes('ndjson');
    return lines && response.body !== null ? new Response(response.body.pipeThrough(notJsonLinesAsErrors()), { status: response.status, statusText: response.statusText, headers: response.headers }) : response;
  }
  const text = await response.text();
  const headers = new Headers(response.headers);
  headers.set('content-type', 'application/json');
  headers.delete('content-length');
  return new Response(JSON.stringify({ error: errorMessage(text) }), { status: response.status, statusText: response.statusText, headers });
}

/** Ollama's `{"error": "…"}` message, an error object's `message`, or else the whole text. */
function errorMessage(text: string): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text;
  }
  const error = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['error'] : undefined;
  if (typeof error === 'string') return error;
  const message = typeof error === 'object' && error !== null ? (error as Record<string, unknown>)['message'] : undefined;
  return typeof message === 'string' ? message : text;
}

/**
 * A successful answer to a streamed request that is not labelled NDJSON (a
 * page, a JSON answer) with its lines checked as `ollamaFetch` checks an
 * NDJSON one's: the client would print each line that is not JSON with
 * `console.warn` (a page, whatever it holds) and skip it.
 */
export function jsonLinesChecked(response: Response): Response {
  const ndjson = (response.headers.get('content-type') ?? '').includes('ndjson');
  if (ndjson || response.body === null) return response;
  return new Response(response.body.pipeThrough(notJsonLinesAsErrors()), { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** NDJSON with each line that does not parse as JSON replaced by `{"error": "<NOT_JSON_LINE> (N characters)"}` (its text never shown). */
function notJsonLinesAsErrors(): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = '';
  const checked = (line: string): string => {
    if (line.trim() === '') return line;
    try {
      JSON.parse(line);
      return line;
    } catch {
      return JSON.stringify({ error: `${NOT_JSON_LINE} (${line.length} characters)` });
    }
  };
  return new TransformStream({
    transform(chunk, controller) {
      pending += decoder.decode(chunk, { stream: true });
      const end = pending.lastIndexOf('\n');
      if (end === -1) return;
      const whole = pending.slice(0, end).split('\n').map(checked).join('\n');
      pending = pending.slice(end + 1);
      controller.enqueue(encoder.encode(`${whole}\n`));
    },
    flush(controller) {
      pending += decoder.decode();
      if (pending !== '') controller.enqueue(encoder.encode(checked(pending)));
    },
  });
}

