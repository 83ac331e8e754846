/**
 * A streamed request answered without a stream: some OpenAI- and
 * Anthropic-compatible servers ignore `stream: true` and send one JSON
 * completion or message (`content-type: application/json`). The provider
 * reads it whole and delivers it as one delta, with a warning, rather than
 * failing the call as a stream that never began.
 */
import { badResponse } from '../call/bad-response.ts';
import type { AttemptResult } from '../call/model-attempt.ts';
import { isProviderError } from '../errors/provider-error.ts';
import { notAStreamHint, streamAnswerOf, type StreamFormat } from './not-a-stream.ts';

/** The answer's content type when it is JSON (a streamed request answered whole), else undefined. */
export function jsonAnswerType(response: Response): string | undefined {
  const contentType = response.headers.get('content-type') ?? '';
  return /^application\/json\b/i.test(contentType) ? contentType : undefined;
}

/** The warning the result carries. */
function answeredWholeWarning(contentType: string): string {
  return `the server answered without streaming (content-type ${contentType}); its reply was read whole`;
}

/**
 * The result of a streamed request answered with one JSON body (`contentType`
 * as `jsonAnswerType` read it): `toResult` of the body, with the warning.
 * When the body is not JSON, or holds no reply (`toResult` throws
 * `PROVIDER_BAD_RESPONSE`), the error says what answered and what to check,
 * as a stream that brought no event does (`notAStreamHint`).
 */
export async function readWholeAnswer<T>(response: Response, contentType: string, format: StreamFormat, toResult: (body: T) => AttemptResult): Promise<AttemptResult> {
  const hint = notAStreamHint(streamAnswerOf(response), 0, format);
  const body = await response.text();
  let parsed: T;
  try {
    parsed = JSON.parse(body) as T;
  } catch {
    // Not the body itself: a message is redacted as a whole, and a cut could leave part of a key in it.
    throw badResponse(`the server answered a streamed request with application/json that is not JSON (${body.length} characters)${hint}`);
  }
  let result: AttemptResult;
  try {
    result = toResult(parsed);
  } catch (error) {
    if (isProviderError(error) && error.code === 'PROVIDER_BAD_RESPONSE') throw badResponse(`${error.detail}${hint}`);
    throw error;
  }
  return { ...result, warnings: [...(result.warnings ?? []), answeredWholeWarning(contentType)] };
}
