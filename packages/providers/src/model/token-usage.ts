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
}
