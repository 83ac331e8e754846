/**
 * The `fetch` the `ollama` client is given: `attemptFetch`, with an error
 * response whose body is not JSON (a proxy's 502 page, Ollama's own plain
 * `404 page not found`) handed over as `{"error": <its text>}`. The client
 * reads a JSON error body quietly; any other it reads after a `console.log`
 * ("Getting text from response"), which lands on the host's standard output
 * (and breaks `askloop run --json`). The message the client builds is the
 * same text either way.
 */
import { attemptFetch } from '../call/attempt-fetch.ts';

/** `attemptFetch` with non-JSON error bodies wrapped as JSON. */
export async function ollamaFetch(input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]): Promise<Response> {
  const response = await attemptFetch(input, init);
  if (response.ok || response.headers.get('content-type')?.includes('application/json') === true) return response;
  const text = await response.text();
  const headers = new Headers(response.headers);
  headers.set('content-type', 'application/json');
  headers.delete('content-length');
  return new Response(JSON.stringify({ error: text }), { status: response.status, statusText: response.statusText, headers });
}
