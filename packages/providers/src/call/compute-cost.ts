import type { ModelPrices } from '../model/model-prices.ts';
import type { TokenUsage } from '../model/token-usage.ts';

/** Cost of one call in US dollars, or undefined when the model has no prices. */
export function computeCost(usage: TokenUsage, prices: ModelPrices | undefined): number | undefined {
  if (prices === undefined) return undefined;
  const cached = Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens);
  const uncached = usage.inputTokens - cached;
  const cachedPrice = prices.cachedInputPerMillion ?? prices.inputPerMillion;
  return (uncached * prices.inputPerMillion + cached * cachedPrice + usage.outputTokens * prices.outputPerMillion) / 1_000_000;
}
