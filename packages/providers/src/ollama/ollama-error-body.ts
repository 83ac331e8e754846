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

/** `attemptFetch` with error bodies rewritten as `{"error": <message>}`. */
export async function ollamaFetch(input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]): Promise<Response> {
  const response = await attemptFetch(input, init);
  if (response.ok) return response;
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
