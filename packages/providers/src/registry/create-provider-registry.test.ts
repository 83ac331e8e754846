import { describe, expect, it } from 'vitest';
import { createOpenAIProvider } from '../openai/openai-provider.ts';
import { createScriptedProvider } from '../scripted/scripted-provider.ts';
import { createProviderRegistry } from './create-provider-registry.ts';

describe('createProviderRegistry', () => {
  const registry = createProviderRegistry({
    openai: createOpenAIProvider({ apiKey: 'sk-x' }),
    scripted: createScriptedProvider({ models: { demo: ['hello'], other: ['bye'] } }),
  });

  it('finds models by provider:model id', async () => {
    expect(registry.languageModel('openai:gpt-4.1-mini')).toMatchObject({ provider: 'openai', modelId: 'gpt-4.1-mini' });
    expect((await registry.languageModel('scripted:demo').generate({ prompt: 'x' })).text).toBe('hello');
    expect(registry.providerNames).toEqual(['openai', 'scripted']);
  });

  it('splits at the first separator, so model ids may contain it', () => {
    const withTags = createProviderRegistry({ ollama: createOpenAIProvider({ name: 'ollama', apiKey: 'x' }) });
    expect(withTags.languageModel('ollama:qwen3:8b').modelId).toBe('qwen3:8b');
  });

  it('lists what exists when the provider is unknown', () => {
    expect(() => registry.languageModel('mistral:large')).toThrow(/PROVIDER_NOT_FOUND: unknown provider "mistral"; available: openai, scripted/);
    expect(() => registry.languageModel('gpt-4')).toThrow(/PROVIDER_NOT_FOUND: model id "gpt-4" must look like provider:model/);
  });

  it('lists what exists when the model is unknown', () => {
    expect(() => registry.languageModel('scripted:nope')).toThrow(/PROVIDER_MODEL_NOT_FOUND: unknown model "nope"; available: demo, other/);
    expect(() => registry.languageModel('scripted:constructor')).toThrow(/PROVIDER_MODEL_NOT_FOUND/);
  });
});
