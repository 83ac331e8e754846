import type { TokenUsage } from '../model/token-usage.ts';

/** The Messages API `usage` object (fields may be null in stream deltas). */
export interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

/**
 * Anthropic's `input_tokens` excludes cache reads and writes; we add them so
 * `inputTokens` is the whole prompt, as with the other providers.
 */
export function anthropicUsage(usage: AnthropicUsage): TokenUsage {
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  const cacheWrite = usage.cache_creation_input_tokens ?? 0;
  return {
    inputTokens: (usage.input_tokens ?? 0) + cacheRead + cacheWrite,
    outputTokens: usage.output_tokens ?? 0,
    ...(usage.cache_read_input_tokens == null ? {} : { cachedInputTokens: cacheRead }),
    ...(usage.cache_creation_input_tokens == null ? {} : { cacheWriteInputTokens: cacheWrite }),
  };
}
