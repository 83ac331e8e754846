import { badResponse } from '../call/bad-response.ts';
import { codeForErrorNames, errorNamesOf } from '../errors/error-type-code.ts';
import { codeForStatus } from '../errors/status-code.ts';
import { ProviderError } from '../errors/provider-error.ts';
import type { ProviderErrorCode } from '../errors/provider-error-code.ts';
import { readServerSentEvents } from '../stream/read-server-sent-events.ts';
import type { ServerSentEvent } from '../stream/server-sent-event-parser.ts';

const isDone = (event: ServerSentEvent): boolean => event.data === '[DONE]';

/**
 * The JSON events of a streamed OpenAI response (Chat Completions chunks or
 * Responses API events), read from the raw HTTP response. The SDK still sends
 * the request and turns an HTTP error into its error; the body is read here
 * rather than by the SDK's `Stream` because that costs about 10 µs of CPU per
 * event and cancels the body at `[DONE]`, which closes the connection when
 * the body's end arrives in a later write (see readServerSentEvents).
 *
 * Stops at `[DONE]`, or at the body's end without it (the caller checks for a
 * finish chunk, which some compatible servers send without `[DONE]`). An event with an `error` (or the SSE name `error`, or a
 * Responses `type: "error"` event) throws {@link streamError}; an event that
 * is not a JSON object is `PROVIDER_BAD_RESPONSE`.
 */
export async function* openAIStreamEvents(response: Response): AsyncGenerator<Record<string, unknown>, void, undefined> {
  if (response.body === null) throw badResponse('the streamed response has no body');
  for await (const event of readServerSentEvents(response.body, { isLast: isDone, requireLast: false })) {
    const data = parseEvent(event.data);
    if (data['error'] || event.event === 'error' || data['type'] === 'error') throw streamError(data['error'] || data);
    yield data;
  }
}

function parseEvent(data: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    // Not the event's text: a message is redacted as a whole, and a cut could leave part of a key in it.
    throw badResponse(`a stream event is not JSON (${data.length} characters)`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw badResponse(`a stream event is not a JSON object (${data.length} characters)`);
  return parsed as Record<string, unknown>;
}

/**
 * An error the server reported inside a stream that had begun with HTTP 200,
 * coded as the same error in an HTTP status would be: a numeric `code` (vLLM
 * sends the status there) by {@link codeForStatus}, else by its `type` or
 * `code` name ({@link codeForErrorNames}: a bad request, a rate limit, a key);
 * anything else, the server failing mid-reply, is `PROVIDER_SERVER`, retried
 * when no text was delivered yet.
 */
function streamError(error: unknown): ProviderError {
  const fields = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  const type = typeof fields['type'] === 'string' && fields['type'] !== 'error' ? fields['type'] : undefined;
  const name = typeof fields['code'] === 'string' ? fields['code'] : undefined;
  const status = typeof fields['code'] === 'number' ? fields['code'] : undefined;
  const message = typeof fields['message'] === 'string' ? fields['message'] : undefined;
  const code: ProviderErrorCode = status !== undefined && status >= 400 && status < 600 ? codeForStatus(status) : (codeForErrorNames(errorNamesOf(fields)) ?? 'PROVIDER_SERVER');
  const detail = [message ?? 'no message', ...[type, name ?? status].filter((value) => value !== undefined).map((value) => `(${String(value)})`)].join(' ');
  return new ProviderError({ code, message: `error in stream: ${detail}` });
}
