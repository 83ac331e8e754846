import { describe, expect, it } from 'vitest';
import { ProviderError } from '../errors/provider-error.ts';
import { defineProvider } from './define-provider.ts';
import type { AttemptResult } from './model-attempt.ts';

const OK: AttemptResult = { text: 'done', usage: { inputTokens: 3, outputTokens: 2 }, finishReason: 'stop', raw: {} };

describe('defineProvider', () => {
  it('builds a provider without secrets (a key-less local model)', async () => {
    const provider = defineProvider({ name: 'local', settings: { models: ['m'] }, attempt: () => async () => OK });
    expect(provider.modelIds).toEqual(['m']);
    expect(await provider.languageModel('m').generate({ prompt: 'x' })).toMatchObject({ text: 'done', usage: { inputTokens: 3, outputTokens: 2 } });
  });

  it('refuses a model id outside its list, naming what exists', () => {
    const provider = defineProvider({ name: 'local', settings: { models: ['m'] }, attempt: () => async () => OK });
    expect(() => provider.languageModel('nope')).toThrow(ProviderError);
    expect(() => provider.languageModel('nope')).toThrow(/nope.*m/);
  });

  it('redacts the secrets it is given from what an attempt throws', async () => {
    const provider = defineProvider({
      name: 'keyed',
      settings: { retry: { maxRetries: 0 } },
      attempt: () => async () => {
        throw new Error('rejected key sk-test-123456');
      },
      secrets: () => ['sk-test-123456'],
    });
    const error = await provider.languageModel('m').generate({ prompt: 'x' }).catch((caught: unknown) => caught);
    expect(String((error as Error).message)).not.toContain('sk-test-123456');
    expect((error as ProviderError).code).toMatch(/^PROVIDER_/);
  });
});

describe('defineProvider checks its definition (PROVIDER_CONFIG)', () => {
  const attempt = () => async () => ({ text: 'x', usage: { inputTokens: 1, outputTokens: 1 }, finishReason: 'stop' as const, raw: null });
  it.each([
    ['a name with a colon', { name: 'a:b', settings: {}, attempt }, "the provider name \"a:b\" cannot hold ':' or white space"],
    ['an empty name', { name: '', settings: {}, attempt }, "a provider's name is the text before ':' in 'name:model', got an empty name"],
    ['a negative timeout', { name: 'p', settings: { timeoutMs: -1 }, attempt }, 'settings.timeoutMs must be a number of milliseconds ≥ 0 (0 or Infinity: no timeout), got -1'],
    ['retries that are not a number', { name: 'p', settings: { retry: { maxRetries: 'lots' } }, attempt }, 'settings.retry.maxRetries must be a whole number ≥ 0, got "lots"'],
    ['no attempt', { name: 'p', settings: {} }, 'attempt must be a function (modelId) => attempt, got undefined'],
  ])('refuses %s', (_, definition, message) => {
    expect(() => defineProvider(definition as never)).toThrow(expect.objectContaining({ code: 'PROVIDER_CONFIG', message: expect.stringContaining(`defineProvider: ${message}`) }));
  });

  it('takes a definition without settings as the defaults', async () => {
    const provider = defineProvider({ name: 'p', attempt } as never);
    expect((await provider.languageModel('m').generate({ prompt: 'x' })).text).toBe('x');
  });

  it('fails a call whose attempt resolves no result, or usage that is not whole tokens ≥ 0, with PROVIDER_BAD_RESPONSE naming it', async () => {
    const resolving = (result: unknown) => defineProvider({ name: 'p', settings: { retry: { maxRetries: 0 } }, attempt: () => async () => result as never }).languageModel('m');
    await expect(resolving(undefined).generate({ prompt: 'x' })).rejects.toMatchObject({ code: 'PROVIDER_BAD_RESPONSE', message: expect.stringContaining('the attempt resolved undefined, not a result { text, usage, finishReason }') });
    await expect(resolving({ text: 'x', usage: { inputTokens: -5, outputTokens: 1 }, finishReason: 'stop' }).generate({ prompt: 'x' })).rejects.toMatchObject({
      code: 'PROVIDER_BAD_RESPONSE',
      message: expect.stringContaining('its usage.inputTokens is -5, not a whole number of tokens ≥ 0'),
    });
    // No usage at all is estimated, as a reply reporting zero tokens is.
    const estimated = await resolving({ text: 'abcdefgh', finishReason: 'stop' }).generate({ prompt: 'x' });
    expect(estimated.usage).toEqual({ inputTokens: 1, outputTokens: 2 });
  });
});
