import type { TokenUsage } from '../model/token-usage.ts';

/** The `usage` object of Chat Completions (compatible servers may omit parts). */
export interface OpenAIUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
}

/** Converts Chat Completions usage; `prompt_tokens` already includes cached tokens. */
export function openAIUsage(usage: OpenAIUsage | null | undefined): TokenUsage {
  const cached = usage?.prompt_tokens_details?.cached_tokens;
  return {
    inputTokens: usage?.prompt_tokens ?? 0,
    outputTokens: usage?.completion_tokens ?? 0,
    ...(typeof cached === 'number' ? { cachedInputTokens: cached } : {}),
  };
}
