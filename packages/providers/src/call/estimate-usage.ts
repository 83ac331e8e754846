/**
 * Usage for a reply whose provider reported none (a server that rejects
 * `stream_options`, an Ollama build without eval counts): zero tokens for a
 * reply with text cannot be true, and zero would let a loop's token and cost
 * ceilings never trip. Estimated at 4 characters a token, and said so in the
 * result's warnings.
 */
import type { TokenUsage } from '../model/token-usage.ts';

/** Characters per token of the estimate (the usual rule of thumb for English and code). */
const CHARACTERS_PER_TOKEN = 4;

/** The warning an estimated usage carries. */
export const USAGE_ESTIMATED = `usage estimated: the provider reported no token usage (${CHARACTERS_PER_TOKEN} characters a token)`;

/** Tokens of `text` by the estimate's rule ({@link CHARACTERS_PER_TOKEN} characters a token, rounded up). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARACTERS_PER_TOKEN);
}

/**
 * `usage` as reported, or, when it is all zero for a reply with text, an
 * estimate from the texts sent (`sent`, asked for only then) and received.
 */
export function usageOrEstimate(usage: TokenUsage, sent: () => readonly string[], received: string): { readonly usage: TokenUsage; readonly estimated: boolean } {
  if (usage.inputTokens !== 0 || usage.outputTokens !== 0 || received === '') return { usage, estimated: false };
  return { usage: { inputTokens: sent().reduce((sum, text) => sum + estimateTokens(text), 0), outputTokens: estimateTokens(received) }, estimated: true };
}
