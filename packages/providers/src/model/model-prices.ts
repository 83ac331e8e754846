/** Prices of one model in US dollars per million tokens, for cost budgets. */
export interface ModelPrices {
  inputPerMillion: number;
  outputPerMillion: number;
  /** Price of cached prompt tokens; defaults to `inputPerMillion`. */
  cachedInputPerMillion?: number | undefined;
}
