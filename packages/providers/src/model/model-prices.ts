/** Prices of one model in US dollars per million tokens, for cost budgets. */
export interface ModelPrices {
  inputPerMillion: number;
  outputPerMillion: number;
  /** Price of cached prompt tokens; defaults to `inputPerMillion`. */
  cachedInputPerMillion?: number | undefined;
  /** Price of prompt tokens written to the cache (Anthropic charges 1.25× input for its 5-minute cache); defaults to `inputPerMillion`. */
  cacheWriteInputPerMillion?: number | undefined;
}
