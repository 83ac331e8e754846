/**
 * The scripted provider's settings, checked where they are given: a
 * JavaScript caller's `{ replies: [...] }` (for `{ models: { id: [...] } }`)
 * used to fail inside `Object.keys` with a bare TypeError.
 */
import { describeSetting as described } from '../call/provider-definition-check.ts';
import { ProviderError } from '../errors/provider-error.ts';

const SHAPE = "{ models: { demo: ['<<<NSENV:V4:START>>>…'] } } (each model id maps to its replies: a list, or a function of the turn)";


function configError(provider: string, message: string): ProviderError {
  return new ProviderError({ code: 'PROVIDER_CONFIG', provider, retryable: false, message });
}

/** Throws `PROVIDER_CONFIG` unless `replies` is a list of replies or a function. */
export function requireScriptedReplies(replies: unknown, provider: string, where: string): void {
  if (Array.isArray(replies) || typeof replies === 'function') return;
  throw configError(provider, `${where} must be a list of replies or a function of the turn, got ${described(replies)}`);
}

/** Throws `PROVIDER_CONFIG` unless `settings` is an object whose `models` maps each model id to its replies. */
export function requireScriptedProviderSettings(settings: unknown): void {
  const provider = typeof settings === 'object' && settings !== null && typeof (settings as { name?: unknown }).name === 'string' ? (settings as { name: string }).name : 'scripted';
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) {
    throw configError(provider, `createScriptedProvider takes settings like ${SHAPE}, got ${described(settings)}`);
  }
  const models = (settings as { models?: unknown }).models;
  if (typeof models !== 'object' || models === null || Array.isArray(models)) {
    const others = Object.keys(settings).filter((key) => key !== 'models');
    const given = others.length === 0 ? '' : ` (given: ${others.join(', ')})`;
    throw configError(provider, `createScriptedProvider needs settings.models, an object mapping model ids to replies, like ${SHAPE}; got ${described(models)}${given}`);
  }
  for (const [modelId, replies] of Object.entries(models)) requireScriptedReplies(replies, provider, `settings.models[${JSON.stringify(modelId)}]`);
}
