/**
 * Token counts of one call. `inputTokens` counts the whole prompt, cached
 * part included (Anthropic reports cache reads separately; we add them back so
 * the numbers mean the same for every provider).
 */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  /** Prompt tokens served from the provider's cache, where reported. */
  cachedInputTokens?: number | undefined;
  /** Prompt tokens written to the provider's cache, where reported (Anthropic's `cache_creation_input_tokens`); part of `inputTokens`. */
  cacheWriteInputTokens?: number | undefined;
}
