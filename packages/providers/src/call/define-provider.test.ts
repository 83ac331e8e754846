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
    // Misspelt settings used to leave the defaults in force without a word (a plain-JavaScript plugin has no type check).
    ['timeout for timeoutMs', { name: 'p', settings: { timeout: 100 }, attempt }, 'settings.timeout is not read; did you mean timeoutMs?'],
    ['baseUrl for baseURL', { name: 'p', settings: { baseUrl: 'http://x' }, attempt }, 'settings.baseUrl is not read; did you mean baseURL?'],
    ['maxRetries outside retry', { name: 'p', settings: { maxRetries: 5 }, attempt }, 'settings.maxRetries is not read; did you mean retry: { maxRetries }?'],
    ['a misspelt retry field', { name: 'p', settings: { retry: { maxRetry: 5 } }, attempt }, "settings.retry has no field 'maxRetry'; did you mean 'maxRetries'?"],
    ['secrets that are a list', { name: 'p', settings: {}, attempt, secrets: ['k'] }, 'secrets must be a function () => [key, …], called at each request, got a list'],
    // A shared setting beside `settings` instead of in it ran with the default: a 500 ms timeout waited 3 s.
    ['timeoutMs beside settings', { name: 'p', attempt, timeoutMs: 500 }, "'timeoutMs' is not read; did you mean settings: { timeoutMs }? (its fields: name, settings, attempt, secrets, load; the shared settings go in settings)"],
    ['retry beside settings', { name: 'p', settings: {}, attempt, retry: { maxRetries: 0 } }, "'retry' is not read; did you mean settings: { retry }?"],
    ['timeout beside settings', { name: 'p', attempt, timeout: 500 }, "'timeout' is not read; did you mean settings: { timeoutMs }?"],
    ['a misspelt field', { name: 'p', settings: {}, attempt, secret: () => [] }, "'secret' is not read; did you mean secrets?"],
    ['a field named like a prototype member', { name: 'p', settings: {}, attempt, constructor: 1 }, "'constructor' is not read (its fields"],
    // Prices were taken unchecked: misnamed fields or NaN made every cost NaN, a negative price a negative cost, so a
    // costUsd ceiling never tripped; a provider:model key priced no model.
    ['prices with misnamed fields', { name: 'p', settings: { prices: { m: { input: 1, output: 2 } } }, attempt }, "settings.prices[\"m\"] has no field 'input'; did you mean 'inputPerMillion'?"],
    ['a price that is NaN', { name: 'p', settings: { prices: { m: { inputPerMillion: Number.NaN, outputPerMillion: 1 } } }, attempt }, 'settings.prices["m"].inputPerMillion must be a finite number of US dollars per million tokens ≥ 0, got NaN'],
    ['a negative price', { name: 'p', settings: { prices: { m: { inputPerMillion: 1, outputPerMillion: -2 } } }, attempt }, 'settings.prices["m"].outputPerMillion must be a finite number of US dollars per million tokens ≥ 0, got -2'],
    ['a price missing its output half', { name: 'p', settings: { prices: { m: { inputPerMillion: 1 } } }, attempt }, 'settings.prices["m"].outputPerMillion must be a finite number of US dollars per million tokens ≥ 0, got nothing'],
    ['prices keyed by provider:model', { name: 'p', settings: { prices: { 'p:m': { inputPerMillion: 1, outputPerMillion: 2 } } }, attempt }, "settings.prices is keyed by the provider's model id: 'm', not 'p:m'"],
    ['prices that are a list', { name: 'p', settings: { prices: [] }, attempt }, 'settings.prices must map model ids to { inputPerMillion, outputPerMillion }, got a list'],
  ])('refuses %s', (_, definition, message) => {
    expect(() => defineProvider(definition as never)).toThrow(expect.objectContaining({ code: 'PROVIDER_CONFIG', message: expect.stringContaining(`defineProvider: ${message}`) }));
  });

  it("takes a provider's own settings beside the shared ones", () => {
    expect(() => defineProvider({ name: 'p', settings: { region: 'eu', deployment: 'd1', timeoutMs: 5 }, attempt } as never)).not.toThrow();
  });

  it('refuses, when the model is made, an attempt that is the wire function itself instead of (modelId) => wire', async () => {
    let unhandled = 0;
    const count = (): void => {
      unhandled += 1;
    };
    process.on('unhandledRejection', count);
    try {
      const wire = async (request: { prompt: string }) => {
        throw new Error(`cannot send ${request.prompt.length}`);
      };
      const provider = defineProvider({ name: 'p', settings: {}, attempt: wire as never });
      expect(() => provider.languageModel('m')).toThrow(expect.objectContaining({ code: 'PROVIDER_CONFIG', message: expect.stringContaining('attempt(modelId) returned a promise, not the function performing one request') }));
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).toBe(0);
    } finally {
      process.off('unhandledRejection', count);
    }
  });

  it('fails a call whose secrets() throws or returns no list as PROVIDER_CONFIG, before any request', async () => {
    let sent = 0;
    const counting = () => async () => {
      sent += 1;
      return OK;
    };
    const throwing = defineProvider({ name: 'p', settings: {}, attempt: counting, secrets: () => {
      throw new Error('vault unreachable');
    } });
    await expect(throwing.languageModel('m').generate({ prompt: 'x' })).rejects.toMatchObject({ name: 'ProviderError', code: 'PROVIDER_CONFIG', retryable: false, message: expect.stringContaining("the provider's secrets() threw an Error, so no request was sent; its message is not shown") });
    // What it threw is not quoted: reading the keys may fail on a key (JSON.parse quotes the start of its input).
    const misparsed = defineProvider({ name: 'p', settings: {}, attempt: counting, secrets: () => JSON.parse('sk-live-the-key') as string[] });
    const parseFailure = await misparsed.languageModel('m').generate({ prompt: 'x' }).then(() => new ProviderError({ code: 'PROVIDER_UNKNOWN', message: 'not refused' }), (error: unknown) => error as ProviderError);
    expect(parseFailure).toMatchObject({ code: 'PROVIDER_CONFIG', message: expect.stringContaining('threw a SyntaxError') });
    expect(JSON.stringify(parseFailure.toJSON()) + parseFailure.message + parseFailure.stack).not.toContain('sk-live-th');
    const thrownText = defineProvider({ name: 'p', settings: {}, attempt: counting, secrets: () => {
      throw 'no key sk-live-the-key';
    } });
    await expect(thrownText.languageModel('m').generate({ prompt: 'x' })).rejects.toMatchObject({ message: expect.stringMatching(/threw a string, so no request was sent(?!.*sk-live)/) });
    // The usual slip, `secrets: () => apiKey`, returns the key itself: the message must not quote it.
    const notAList = defineProvider({ name: 'p', settings: {}, attempt: counting, secrets: (() => 'sk-the-key-itself') as never });
    const refused = await notAList.languageModel('m').generate({ prompt: 'x' }).then(() => new ProviderError({ code: 'PROVIDER_UNKNOWN', message: 'not refused' }), (error: unknown) => error as ProviderError);
    expect(refused).toMatchObject({ code: 'PROVIDER_CONFIG', message: expect.stringContaining('returned a string, not a list of keys (() => [key], not () => key)') });
    expect(JSON.stringify(refused.toJSON()) + refused.message + refused.stack).not.toContain('sk-the-key-itself');
    // Nor when the key is given as secrets itself, where the function goes.
    expect(() => defineProvider({ name: 'p', settings: {}, attempt: counting, secrets: 'sk-the-key-itself' as never })).toThrow(expect.objectContaining({ code: 'PROVIDER_CONFIG', message: expect.not.stringContaining('sk-the-key-itself') }));
    expect(sent).toBe(0);
  });

  it('takes a definition without settings as the defaults', async () => {
    const provider = defineProvider({ name: 'p', attempt } as never);
    expect((await provider.languageModel('m').generate({ prompt: 'x' })).text).toBe('x');
  });

  it('fails a call whose attempt resolves no result, or usage that is not whole tokens ≥ 0, with PROVIDER_BAD_RESPONSE naming it', async () => {
    const resolving = (result: unknown) => defineProvider({ name: 'p', settings: { retry: { maxRetries: 0 } }, attempt: () => async () => result as never }).languageModel('m');
    await expect(resolving(undefined).generate({ prompt: 'x' })).rejects.toMatchObject({ code: 'PROVIDER_BAD_RESPONSE', message: expect.stringContaining('attempt must return { text, usage, finishReason, raw } (an AttemptResult), got undefined') });
    await expect(resolving({ text: 'x', usage: { inputTokens: -5, outputTokens: 1 }, finishReason: 'stop' }).generate({ prompt: 'x' })).rejects.toMatchObject({
      code: 'PROVIDER_BAD_RESPONSE',
      message: expect.stringContaining('result.usage.inputTokens must be a whole number of tokens from 0 to 2^53 − 1, got -5'),
    });
    // Summed, 1e308 tokens became Infinity, which a stored result writes as null.
    await expect(resolving({ text: 'x', usage: { inputTokens: 1e308, outputTokens: 1 }, finishReason: 'stop' }).generate({ prompt: 'x' })).rejects.toMatchObject({
      code: 'PROVIDER_BAD_RESPONSE',
      message: expect.stringContaining('result.usage.inputTokens must be a whole number of tokens from 0 to 2^53 − 1, got 1e+308'),
    });
    // A provider's own finish reason where the normalised one goes, and warnings that are no list: taken silently before
    // ('end_turn' never read as a cut reply; a string spread into one warning per character).
    await expect(resolving({ text: 'x', finishReason: 'end_turn' }).generate({ prompt: 'x' })).rejects.toMatchObject({
      code: 'PROVIDER_BAD_RESPONSE',
      message: expect.stringContaining("result.finishReason must be one of 'stop', 'length', 'content-filter', 'tool-calls', 'error', 'other' (the provider's own goes in rawFinishReason), got \"end_turn\""),
    });
    await expect(resolving({ text: 'x', finishReason: 'stop', warnings: 'slow' }).generate({ prompt: 'x' })).rejects.toMatchObject({ code: 'PROVIDER_BAD_RESPONSE', message: expect.stringContaining('result.warnings must be a list of texts or left out, got a string of 4 characters') });
    // Every field said one way: the field, what it must be, what it got (before: "the response carried no text").
    await expect(resolving({ text: 42, finishReason: 'stop' }).generate({ prompt: 'x' })).rejects.toMatchObject({ code: 'PROVIDER_BAD_RESPONSE', message: '[p:m] PROVIDER_BAD_RESPONSE: result.text must be a string (the reply), got 42' });
    await expect(resolving({ text: 'x', finishReason: 'stop', usage: { inputTokens: '10', outputTokens: 1 } }).generate({ prompt: 'x' })).rejects.toMatchObject({ message: expect.stringContaining('result.usage.inputTokens must be a whole number of tokens from 0 to 2^53 − 1, got "10"') });
    await expect(resolving({ text: 'x', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1, cachedInputTokens: 1.5 } }).generate({ prompt: 'x' })).rejects.toMatchObject({ message: expect.stringContaining('result.usage.cachedInputTokens must be a whole number of tokens from 0 to 2^53 − 1, or left out, got 1.5') });
    await expect(resolving({ text: 'x', finishReason: 'stop', warnings: ['ok', { note: 'sk-secret' }] }).generate({ prompt: 'x' })).rejects.toMatchObject({ message: expect.stringContaining('result.warnings[1] must be a text, got an object') });
    await expect(resolving({ text: 'x', finishReason: 'stop', rawFinishReason: 3 }).generate({ prompt: 'x' })).rejects.toMatchObject({ message: expect.stringContaining("result.rawFinishReason must be a string (the provider's own finish reason) or left out, got 3") });
    // The reply returned bare is the usual slip: named by its length, never quoted (it may hold anything).
    const reply = 'the whole reply, with the user key sk-live-abc in it';
    const bare = (await resolving(reply).generate({ prompt: 'x' }).catch((error: unknown) => error)) as ProviderError;
    expect(bare).toMatchObject({ code: 'PROVIDER_BAD_RESPONSE', message: `[p:m] PROVIDER_BAD_RESPONSE: attempt must return { text, usage, finishReason, raw } (an AttemptResult), got a string of ${reply.length} characters` });
    expect(JSON.stringify(bare.toJSON())).not.toContain('sk-live-abc');
    // No usage at all is estimated, as a reply reporting zero tokens is.
    const estimated = await resolving({ text: 'abcdefgh', finishReason: 'stop' }).generate({ prompt: 'x' });
    expect(estimated.usage).toEqual({ inputTokens: 1, outputTokens: 2 });
  });
});
