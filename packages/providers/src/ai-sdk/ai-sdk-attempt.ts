import { badResponse } from '../call/bad-response.ts';
import type { ModelAttempt } from '../call/model-attempt.ts';
import { aiSDKCallOptions, aiSDKFinishReason, aiSDKUsage } from './ai-sdk-convert.ts';
import type { AISDKFinishReason, AISDKLanguageModel, AISDKStreamPart, AISDKUsage } from './ai-sdk-types.ts';

/** One `doGenerate` or `doStream` call on an AI SDK model. */
export function aiSDKAttempt(model: AISDKLanguageModel): ModelAttempt {
  return async (request) => {
    const options = aiSDKCallOptions(request);
    if (request.onText === undefined) {
      const result = await model.doGenerate(options);
      if (!Array.isArray(result?.content)) throw badResponse('doGenerate returned no content array');
      const text = result.content.map((part) => (part.type === 'text' && typeof part.text === 'string' ? part.text : '')).join('');
      const finish = aiSDKFinishReason(result.finishReason);
      return {
        text,
        usage: aiSDKUsage(result.usage),
        finishReason: finish.finishReason,
        rawFinishReason: finish.raw,
        raw: result.response?.body ?? { content: result.content },
      };
    }
    const { stream } = await model.doStream(options);
    const parts: AISDKStreamPart[] = [];
    let text = '';
    let usage: AISDKUsage | undefined;
    let reason: AISDKFinishReason | undefined;
    const reader = stream.getReader();
    for (;;) {
      const { done, value: part } = await reader.read();
      if (done) break;
      parts.push(part);
      if (part.type === 'error') {
        // The stream is not read any further: cancelled, so the model stops producing it (the attempt's signal aborts too).
        void reader.cancel().catch(() => undefined);
        throw (part as { error: unknown }).error;
      }
      if (part.type === 'text-delta') {
        const delta = (part as { delta?: string; textDelta?: string }).delta ?? (part as { textDelta?: string }).textDelta ?? '';
        text += delta;
        request.onText(delta);
      } else if (part.type === 'finish') {
        const finish = part as { usage: AISDKUsage; finishReason: AISDKFinishReason };
        usage = finish.usage;
        reason = finish.finishReason;
      }
    }
    if (reason === undefined) throw badResponse('the stream ended without a finish part');
    const finish = aiSDKFinishReason(reason);
    return { text, usage: aiSDKUsage(usage), finishReason: finish.finishReason, rawFinishReason: finish.raw, raw: { parts } };
  };
}
