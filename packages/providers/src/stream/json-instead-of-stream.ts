/**
 * A streamed request answered without a stream: some OpenAI- and
 * Anthropic-compatible servers ignore `stream: true` and send one JSON
 * completion or message (`content-type: application/json`). The provider
 * reads it whole and delivers it as one delta, with a warning, rather than
 * failing the call as a stream that never began.
 */
import { badResponse } from '../call/bad-response.ts';

/** The answer's content type when it is JSON (a streamed request answered whole), else undefined. */
export function jsonAnswerType(response: Response): string | undefined {
  const contentType = response.headers.get('content-type') ?? '';
  return /^application\/json\b/i.test(contentType) ? contentType : undefined;
}

/**
 * What a stream that ended before its last event adds to its error when no
 * event came at all and the answer was no event stream: most often no stream
 * at all, a page or an answer from something else at the base URL. `api`
 * names what the base URL should point at (`a Chat Completions API`).
 */
export function notAStreamHint(response: Response, events: number, api: string): string {
  const contentType = response.headers.get('content-type') ?? 'none';
  if (events > 0 || contentType.includes('text/event-stream')) return '';
  return ` (no events: the answer's content-type is ${contentType}, not text/event-stream; does the base URL point at ${api}?)`;
}

/** The warning the result carries. */
export function answeredWholeWarning(contentType: string): string {
  return `the server answered without streaming (content-type ${contentType}); its reply was read whole`;
}

/** The answer's JSON body; `PROVIDER_BAD_RESPONSE` when it is not JSON. */
export async function readJsonAnswer<T>(response: Response): Promise<T> {
  const body = await response.text();
  try {
    return JSON.parse(body) as T;
  } catch {
    // Not the body itself: a message is redacted as a whole, and a cut could leave part of a key in it.
    throw badResponse(`the server answered a streamed request with application/json that is not JSON (${body.length} characters)`);
  }
}
