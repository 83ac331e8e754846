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
