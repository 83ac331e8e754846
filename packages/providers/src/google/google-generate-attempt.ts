import type { GoogleGenAI } from '@google/genai';
import { badResponse } from '../call/bad-response.ts';
import type { AttemptRequest, AttemptResult, ModelAttempt } from '../call/model-attempt.ts';
import { eventStream, notAStreamHint, streamAnswerTap } from '../stream/not-a-stream.ts';
import { googleFinishReason } from './google-finish-reason.ts';
import { googleRequest } from './google-request.ts';
import { googleRaw, googleText, googleUsage, type GoogleResponse } from './google-response.ts';

/** What the generateContent wire code needs. */
export interface GoogleGenerateOptions {
  modelId: string;
  client: (request: AttemptRequest) => Promise<GoogleGenAI>;
}

/** One `models.generateContent` request, or `streamGenerateContent?alt=sse` when streaming. */
export function googleGenerateAttempt(options: GoogleGenerateOptions): ModelAttempt {
  return async (request) => {
    const client = await options.client(request);
    const params = { model: options.modelId, ...googleRequest(request) };
    if (request.onText === undefined) {
      const response = (await client.models.generateContent(params as never)) as unknown as GoogleResponse;
      return result(googleText(response), response, googleRaw(response));
    }
    const onText = request.onText;
    // The SDK reads the body itself and keeps the response: the tap notes what answered, for notAStreamHint.
    const tap = streamAnswerTap(request);
    const chunks: unknown[] = [];
    let text = '';
    let last: GoogleResponse = {};
    let usage: GoogleResponse['usageMetadata'];
    let finishReason: string | undefined;
    let blockReason: string | undefined;
    const notAStream = (): string => notAStreamHint(tap.answer, chunks.length, eventStream('the Gemini API'));
    try {
      await tap.run(async () => {
        const stream = await client.models.generateContentStream(params as never);
        for await (const chunk of stream as AsyncIterable<GoogleResponse>) {
          chunks.push(googleRaw(chunk));
          const delta = googleText(chunk);
          if (delta !== '') {
            text += delta;
            onText(delta);
          }
          usage = chunk.usageMetadata ?? usage;
          finishReason = chunk.candidates?.[0]?.finishReason ?? finishReason;
          blockReason = chunk.promptFeedback?.blockReason ?? blockReason;
          last = chunk;
        }
      });
    } catch (error) {
      // A page or a JSON answer fails the SDK's event parser ("Incomplete JSON segment at the end", PROVIDER_UNKNOWN):
      // say what answered instead. An HTTP error or an abort is left as it is (the hint is empty for them).
      const hint = request.signal.aborted ? '' : notAStream();
      if (hint !== '' && tap.answer !== undefined && tap.answer.status < 300) throw badResponse(`the stream ended before any finishReason${hint}`);
      throw error;
    }
    // A blocked prompt ends the stream with promptFeedback and no candidates: the same content-filter result as unstreamed.
    if (blockReason !== undefined) return result(text, { ...last, usageMetadata: usage ?? {}, promptFeedback: { ...last.promptFeedback, blockReason } }, { chunks });
    // A stream cut short must not pass for a complete reply: the last chunk carries finishReason.
    if (finishReason === undefined) throw badResponse(`the stream ended before any finishReason${notAStream()}`);
    const merged: GoogleResponse = { ...last, usageMetadata: usage ?? {} };
    if (finishReason !== undefined) merged.candidates = [{ finishReason }];
    return result(text, merged, { chunks });
  };
}

function result(text: string, response: GoogleResponse, raw: unknown): AttemptResult {
  const reason = response.candidates?.[0]?.finishReason;
  const blocked = response.promptFeedback?.blockReason;
  if (!Array.isArray(response.candidates) && blocked === undefined) {
    throw badResponse('no candidates and no promptFeedback in the response');
  }
  return {
    text,
    usage: googleUsage(response.usageMetadata),
    finishReason: blocked !== undefined ? 'content-filter' : googleFinishReason(reason),
    rawFinishReason: blocked ?? reason,
    raw,
  };
}
