import { badResponse } from '../call/bad-response.ts';
import type { AttemptResult } from '../call/model-attempt.ts';
import { ProviderError } from '../errors/provider-error.ts';
import type { FinishReason } from '../model/finish-reason.ts';

/** The parts of a Responses API `response` object we read. */
export interface OpenAIResponse {
  status?: string;
  error?: { code?: string; message?: string } | null;
  incomplete_details?: { reason?: string } | null;
  output?: { type?: string; content?: { type?: string; text?: string }[] }[];
  usage?: { input_tokens?: number; output_tokens?: number; input_tokens_details?: { cached_tokens?: number } } | null;
}

/** Converts a finished `response` object; `text` is passed when it was assembled from stream deltas. */
export function openAIResponsesResult(response: OpenAIResponse, raw: unknown, warnings: string[], text?: string): AttemptResult {
  if (!Array.isArray(response?.output)) throw badResponse('no output array in the response');
  if (response.status === 'failed') {
    throw new ProviderError({ code: 'PROVIDER_SERVER', message: `response failed: ${response.error?.message ?? response.error?.code ?? 'no detail'}` });
  }
  const assembled = response.output
    .flatMap((item) => (item.type === 'message' ? (item.content ?? []) : []))
    .map((part) => (part.type === 'output_text' && typeof part.text === 'string' ? part.text : ''))
    .join('');
  const reason = response.incomplete_details?.reason ?? response.status;
  const cached = response.usage?.input_tokens_details?.cached_tokens;
  return {
    text: text ?? assembled,
    usage: {
      inputTokens: response.usage?.input_tokens ?? 0,
      outputTokens: response.usage?.output_tokens ?? 0,
      ...(typeof cached === 'number' ? { cachedInputTokens: cached } : {}),
    },
    finishReason: finishReason(reason),
    rawFinishReason: reason,
    raw,
    warnings,
  };
}

function finishReason(reason: string | undefined): FinishReason {
  if (reason === 'completed') return 'stop';
  if (reason === 'max_output_tokens') return 'length';
  if (reason === 'content_filter') return 'content-filter';
  return 'other';
}
