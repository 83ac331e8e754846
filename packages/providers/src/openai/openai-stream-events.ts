import { badResponse } from '../call/bad-response.ts';
import { ProviderError } from '../errors/provider-error.ts';
import { readServerSentEvents } from '../stream/read-server-sent-events.ts';

/**
 * The JSON events of a streamed OpenAI response (Chat Completions chunks or
 * Responses API events), read from the raw HTTP response. The SDK still sends
 * the request and turns an HTTP error into its error; the body is read here
 * rather than by the SDK's `Stream` because that costs about 10 µs of CPU per
 * event and cancels the body at `[DONE]`, which closes the connection when
 * the body's end arrives in a later write (see readServerSentEvents).
 *
 * Stops at `[DONE]`. An event with an `error` (or the SSE name `error`) is a
 * `PROVIDER_SERVER` error; an event that is not a JSON object is
 * `PROVIDER_BAD_RESPONSE`.
 */
export async function* openAIStreamEvents(response: Response): AsyncGenerator<Record<string, unknown>, void, undefined> {
  if (response.body === null) throw badResponse('the streamed response has no body');
  for await (const event of readServerSentEvents(response.body)) {
    if (event.data === '[DONE]') return;
    const data = parseEvent(event.data);
    if (data['error'] || event.event === 'error') throw streamError(data['error'] ?? data);
    yield data;
  }
}

function parseEvent(data: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    throw badResponse(`a stream event is not JSON: ${data.slice(0, 80)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw badResponse(`a stream event is not a JSON object: ${data.slice(0, 80)}`);
  return parsed as Record<string, unknown>;
}

/** An error the server reported inside a stream that had begun with HTTP 200. */
function streamError(error: unknown): ProviderError {
  const message = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined;
  const detail = typeof message === 'string' ? message : JSON.stringify(error).slice(0, 200);
  return new ProviderError({ code: 'PROVIDER_SERVER', message: `error in stream: ${detail}` });
}
