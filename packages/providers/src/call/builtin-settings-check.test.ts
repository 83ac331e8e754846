/**
 * The built-in providers' settings are checked when the provider is made
 * (`PROVIDER_CONFIG`), as `createOpenAICompatibleProvider`'s were: a
 * `baseURL` without its scheme or of another scheme, an unknown `api`, and a
 * `defaultMaxOutputTokens` the API refuses were taken, and the first call
 * failed after its retries (or at every call) without saying which setting.
 */
import { describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../anthropic/anthropic-provider.ts';
import { createGoogleProvider } from '../google/google-provider.ts';
import { createOllamaProvider } from '../ollama/ollama-provider.ts';
import { createOpenAIProvider } from '../openai/openai-provider.ts';

const refused = (make: () => unknown, message: string) => expect(make).toThrow(expect.objectContaining({ code: 'PROVIDER_CONFIG', message: expect.stringContaining(message) }));

describe('the built-in providers check their settings when made', () => {
  it.each([
    ['openai', () => createOpenAIProvider({ baseURL: 'localhost:8080/v1' })],
    ['anthropic', () => createAnthropicProvider({ baseURL: 'ftp://files.example.com' })],
    ['google', () => createGoogleProvider({ baseURL: 'not a url' })],
    ['ollama', () => createOllamaProvider({ baseURL: '' })],
  ])('%s: a baseURL that is no http(s) URL', (_, make) => {
    refused(make, 'baseURL must be an http:// or https:// URL');
  });

  it('a baseURL holding credentials, never shown; a fetch that is no function (walkthrough: PROVIDER_UNKNOWN at each call)', () => {
    const secret = 'sk-ZZTOPSECRET-9f8e7d6c5b4a';
    for (const make of [() => createOpenAIProvider({ baseURL: `http://user:${secret}@127.0.0.1:1/v1` }), () => createAnthropicProvider({ baseURL: `https://${secret}@proxy.example.com` })]) {
      refused(make, 'baseURL holds a user name or password (user:…@host); give the key as apiKey or in headers');
      expect(make).toThrow(expect.objectContaining({ message: expect.not.stringContaining(secret) }));
    }
    // A malformed URL is quoted with its user:password part hidden.
    expect(() => createOllamaProvider({ baseURL: `localhost//u:${secret}@x` })).toThrow(expect.objectContaining({ message: expect.not.stringContaining(secret) }));
    // Review: a password holding '/' or '@', or a key in the query, was shown (the old pattern stopped at the first '/' or '@').
    for (const [baseURL, shown] of [
      [`https://me:ab/${secret}+ef@proxy:99999/v1`, '"https://…@proxy:99999/v1"'],
      [`https://user:p@${secret}@host:bad`, '"https://…@host:bad"'],
      [`htps://proxy.example.com/v1?key=${secret}`, '"htps://proxy.example.com/v1?…"'],
      [`me:${secret}@proxy.example.com`, '"me:…@proxy.example.com"'],
    ]) {
      refused(() => createOpenAIProvider({ baseURL }), `baseURL must be an http:// or https:// URL, e.g. https://proxy.example.com/v1, got ${shown}`);
      expect(() => createOpenAIProvider({ baseURL })).toThrow(expect.objectContaining({ message: expect.not.stringContaining(secret.slice(3, 15)) }));
    }
    refused(() => createOpenAIProvider({ fetch: 'nope' as never }), 'fetch must be a function (url, init) => Promise<Response>, such as globalThis.fetch, got a string');
  });

  it('a setting the factory does not read, with the one meant (walkthrough: defaultMaxOutputToken and keepalive were ignored)', () => {
    refused(() => createAnthropicProvider({ defaultMaxOutputToken: 100 } as never), "createAnthropicProvider: there is no setting 'defaultMaxOutputToken'; did you mean 'defaultMaxOutputTokens'?");
    refused(() => createOllamaProvider({ keepalive: '5m' } as never), "createOllamaProvider: there is no setting 'keepalive'; did you mean 'keepAlive'?");
    refused(() => createOpenAIProvider({ organisation: 'o' } as never), "createOpenAIProvider: there is no setting 'organisation'; did you mean 'organization'?");
    refused(() => createGoogleProvider({ version: 'v1' } as never), "createGoogleProvider: there is no setting 'version'");
    expect(() => createOpenAIProvider({ name: 'o2', api: 'chat', organization: 'o', project: 'p', apiKey: 'k', headers: {}, models: ['m'], onEvent: () => {} })).not.toThrow();
  });

  it("openai: an api other than 'chat' or 'responses'", () => {
    refused(() => createOpenAIProvider({ api: 'respnses' as never }), "createOpenAIProvider: api must be 'chat' or 'responses', got \"respnses\"");
    expect(() => createOpenAIProvider({ api: 'responses', baseURL: 'http://127.0.0.1:1/v1' })).not.toThrow();
  });

  it('anthropic: a defaultMaxOutputTokens that is not a whole number ≥ 1', () => {
    refused(() => createAnthropicProvider({ defaultMaxOutputTokens: -5 }), 'createAnthropicProvider: defaultMaxOutputTokens must be a whole number of tokens ≥ 1, got -5');
    refused(() => createAnthropicProvider({ defaultMaxOutputTokens: 1.5 }), 'got 1.5');
    expect(() => createAnthropicProvider({ defaultMaxOutputTokens: 8192 })).not.toThrow();
  });

  it('takes good settings', () => {
    expect(() => createOpenAIProvider({ baseURL: 'https://proxy.example.com/v1', timeoutMs: 1000, retry: { maxRetries: 1 }, prices: { 'gpt-4.1-mini': { inputPerMillion: 0.4, outputPerMillion: 1.6 } } })).not.toThrow();
    expect(() => createOllamaProvider({ baseURL: 'http://127.0.0.1:11434' })).not.toThrow();
  });
});
