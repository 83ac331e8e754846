import { isProviderError } from '@askloop/providers';
import { closestOption } from '../closest-option.ts';

/**
 * `; did you mean 'openai:gpt-4.1-mini'?` for a model id whose provider name
 * is a slip of a registered one (`opneai:gpt-4.1-mini`), else ''. The
 * registry's own message lists every provider; with several plugins the one
 * meant was easy to miss in the list.
 */
export function providerNotFoundHint(error: unknown, modelId: string, providerNames: readonly string[]): string {
  if (!isProviderError(error) || error.code !== 'PROVIDER_NOT_FOUND' || error.provider === undefined) return '';
  const meant = closestOption(error.provider, providerNames, 2);
  return meant === undefined ? '' : `; did you mean '${meant}${modelId.slice(error.provider.length)}'?`;
}
