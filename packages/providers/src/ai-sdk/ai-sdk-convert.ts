import type { AttemptRequest } from '../call/model-attempt.ts';
import { FINISH_REASONS, type FinishReason } from '../model/finish-reason.ts';
import type { TokenUsage } from '../model/token-usage.ts';
import type { AISDKCallOptions, AISDKFinishReason, AISDKUsage } from './ai-sdk-types.ts';

/** Builds AI SDK call options from one attempt. */
export function aiSDKCallOptions(request: AttemptRequest): AISDKCallOptions {
  const { settings } = request;
  const options: AISDKCallOptions = {
    prompt: [
      ...(request.system === undefined ? [] : [{ role: 'system' as const, content: request.system }]),
      ...request.messages.map((message) => ({ role: message.role, content: [{ type: 'text' as const, text: message.content }] })),
      { role: 'user', content: [{ type: 'text', text: request.prompt }] },
    ],
    abortSignal: request.signal,
  };
  if (settings.temperature !== undefined) options.temperature = settings.temperature;
  if (settings.topP !== undefined) options.topP = settings.topP;
  if (settings.topK !== undefined) options.topK = settings.topK;
  if (settings.maxOutputTokens !== undefined) options.maxOutputTokens = settings.maxOutputTokens;
  if (settings.stopSequences !== undefined && settings.stopSequences.length > 0) options.stopSequences = [...settings.stopSequences];
  if (settings.seed !== undefined) options.seed = settings.seed;
  return options;
}

/** Normalises V2 (flat) and V3/V4 (nested) usage. */
export function aiSDKUsage(usage: AISDKUsage | undefined): TokenUsage {
  if (usage === undefined) return { inputTokens: 0, outputTokens: 0 };
  if (typeof usage.inputTokens === 'object' && usage.inputTokens !== null) {
    const nested = usage as { inputTokens: { total?: number; cacheRead?: number }; outputTokens: { total?: number } };
    const cached = nested.inputTokens.cacheRead;
    return {
      inputTokens: nested.inputTokens.total ?? 0,
      outputTokens: nested.outputTokens.total ?? 0,
      ...(cached === undefined ? {} : { cachedInputTokens: cached }),
    };
  }
  const flat = usage as { inputTokens?: number; outputTokens?: number; cachedInputTokens?: number };
  return {
    inputTokens: flat.inputTokens ?? 0,
    outputTokens: flat.outputTokens ?? 0,
    ...(flat.cachedInputTokens === undefined ? {} : { cachedInputTokens: flat.cachedInputTokens }),
  };
}

/** Normalises V2 string and V3/V4 `{ unified, raw }` finish reasons. */
export function aiSDKFinishReason(reason: AISDKFinishReason | undefined): { finishReason: FinishReason; raw: string | undefined } {
  const unified = typeof reason === 'object' ? reason.unified : reason;
  const raw = typeof reason === 'object' ? reason.raw ?? reason.unified : reason;
  return { finishReason: unified !== undefined && (FINISH_REASONS as readonly string[]).includes(unified) ? (unified as FinishReason) : 'other', raw };
}
