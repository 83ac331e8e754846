import type { ModelPrices } from '../model/model-prices.ts';
import type { TokenUsage } from '../model/token-usage.ts';

/** Cost of one call in US dollars, or undefined when the model has no prices. */
export function computeCost(usage: TokenUsage, prices: ModelPrices | undefined): number | undefined {
  if (prices === undefined) return undefined;
  const cached = Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens);
  const written = Math.min(usage.cacheWriteInputTokens ?? 0, usage.inputTokens - cached);
  const uncached = usage.inputTokens - cached - written;
  const cachedPrice = prices.cachedInputPerMillion ?? prices.inputPerMillion;
  const writePrice = prices.cacheWriteInputPerMillion ?? prices.inputPerMillion;
  return (uncached * prices.inputPerMillion + cached * cachedPrice + written * writePrice + usage.outputTokens * prices.outputPerMillion) / 1_000_000;
}
