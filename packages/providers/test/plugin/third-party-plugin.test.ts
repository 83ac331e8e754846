/**
 * A provider plugin written the way a third party would write it: only the
 * package's public exports, its own error handling, and careless about keys.
 * Whatever it throws or returns, no key may leave the model call.
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createLanguageModel, isProviderError, ProviderError, type ModelAttempt, type ProviderEvent } from '../../src/index.ts';

const KEY = 'tp-live-5f1e9c0d2b7a4e3f8a6b';
const noRetry = { maxRetries: 0, sleep: async () => {}, random: () => 0 };

/** A plugin whose wire code fails in the given way. */
function plugin(attempt: ModelAttempt, events: ProviderEvent[] = []) {
  return createLanguageModel({ provider: 'acme', modelId: 'acme-1', attempt, secrets: () => [KEY], retry: noRetry, onEvent: (event) => events.push(event) });
}

async function failure(attempt: ModelAttempt, events: ProviderEvent[] = []): Promise<unknown> {
  return plugin(attempt, events).generate({ prompt: 'hi' }).then(
    () => { throw new Error('expected the call to fail'); },
    (thrown: unknown) => thrown,
  );
}

/** Every way the error could be printed or logged. */
function renderings(error: unknown): string[] {
  const record = error as Error;
  return [String(error), JSON.stringify(error), inspect(error, { depth: 10, showHidden: true }), record.stack ?? '', JSON.stringify((error as { cause?: unknown }).cause)];
}

/** An error class of the plugin's own, with the raw response attached. */
class AcmeError extends ProviderError {
  body: unknown;
  constructor(body: unknown) {
    super({ code: 'PROVIDER_AUTH', provider: 'acme', model: 'acme-1', status: 401, message: `401 for key ${KEY}`, cause: { name: 'HTTPError', message: `Bearer ${KEY} rejected` } });
    this.body = body;
  }
}

describe('a third-party provider plugin', () => {
  it('cannot leak the key through a ProviderError with provider set (message, cause, raw body)', async () => {
    const events: ProviderEvent[] = [];
    const error = await failure(async () => {
      throw new AcmeError({ error: { message: `Incorrect API key provided: ${KEY}`, echo: { headers: { 'x-acme-key': KEY } } } });
    }, events);
    expect(isProviderError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'PROVIDER_AUTH', provider: 'acme', status: 401 });
    for (const text of renderings(error)) expect(text).not.toContain(KEY);
    expect(JSON.stringify(events)).not.toContain(KEY);
    expect(String(error)).toContain('[REDACTED]');
  });

  it('cannot leak the key through a plain Error with a cause', async () => {
    const error = await failure(async () => {
      throw new Error(`request failed with key=${KEY}`, { cause: new Error(`inner ${KEY}`) });
    });
    expect(isProviderError(error)).toBe(true);
    for (const text of renderings(error)) expect(text).not.toContain(KEY);
  });

  it('cannot leak the key through a non-Error throw', async () => {
    const error = await failure(async () => {
      throw { status: 401, body: { key: KEY, note: `bad ${KEY}` } };
    });
    expect(error).toMatchObject({ code: 'PROVIDER_AUTH', status: 401 });
    for (const text of renderings(error)) expect(text).not.toContain(KEY);
  });

  it('survives a throw that cannot even be printed', async () => {
    const error = await failure(async () => {
      throw Object.create(null);
    });
    expect(error).toMatchObject({ code: 'PROVIDER_UNKNOWN' });
  });

  it('cannot leak the key through the result, the raw body or streamed text', async () => {
    const deltas: string[] = [];
    const result = await plugin(async (request) => {
      for (const piece of ['your key is ', KEY.slice(0, 9), KEY.slice(9), ' ok']) request.onText?.(piece);
      return { text: `your key is ${KEY} ok`, usage: { inputTokens: 1, outputTokens: 1 }, finishReason: 'stop', rawFinishReason: KEY, raw: { echo: KEY, nested: [{ authorization: `Bearer ${KEY}` }] }, warnings: [KEY] };
    }).generate({ prompt: 'hi', onText: (delta) => deltas.push(delta) });
    expect(JSON.stringify(result)).not.toContain(KEY);
    expect(deltas.join('')).toBe('your key is [REDACTED] ok');
    expect(result.text).toBe('your key is [REDACTED] ok');
  });
});
