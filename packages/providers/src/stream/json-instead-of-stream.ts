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
