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

  // Review: a list was registered as providers '0', '1'; a value that is no provider failed on the first id naming it
  // ("found.languageModel is not a function"); an id that is no text, "id.indexOf is not a function".
  it('refuses providers, options and ids of the wrong kind with a typed error saying what is expected', () => {
    const openai = createOpenAIProvider({ apiKey: 'sk-x' });
    expect(() => createProviderRegistry([openai] as never)).toThrow(
      "PROVIDER_CONFIG: createProviderRegistry: takes providers by the name used in ids, { openai, local: createOpenAICompatibleProvider(…) }, got a list; name each one: { name: provider }",
    );
    expect(() => createProviderRegistry({ openai, local: 'http://localhost:11434' } as never)).toThrow(
      "PROVIDER_CONFIG: createProviderRegistry: 'local' must be a provider (an object with languageModel(modelId), such as openai or createOllamaProvider()), got a string",
    );
    expect(() => createProviderRegistry({ 'my server': openai })).toThrow(/PROVIDER_CONFIG: createProviderRegistry: the provider name "my server" cannot hold ':' or white space/);
    expect(() => createProviderRegistry({ openai }, { separtor: '/' } as never)).toThrow("PROVIDER_CONFIG: createProviderRegistry: there is no option 'separtor' (the only option is separator)");
    expect(() => createProviderRegistry({ openai }, { separator: '' })).toThrow(/separator must be non-empty text such as ':', got a string/);
    expect(() => registry.languageModel(5 as never)).toThrow('PROVIDER_NOT_FOUND: a model id is text like provider:model, got a number; providers: openai, scripted');
    expect(createProviderRegistry({ openai }, { separator: '/' }).languageModel('openai/gpt-4.1-mini').modelId).toBe('gpt-4.1-mini');
  });
});
