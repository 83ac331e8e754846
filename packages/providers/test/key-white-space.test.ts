/**
 * A key with white space around it (a CRLF `.env` file, a pasted space) is
 * sent trimmed, and a server that echoes the key it got echoes the trimmed
 * form, which must be scrubbed as the key itself is. Before, only the key as
 * configured was scrubbed, and the echo reached errors, and from there
 * transcripts and the terminal, whole.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../src/anthropic/anthropic-provider.ts';
import { createGoogleProvider } from '../src/google/google-provider.ts';
import { createOllamaProvider } from '../src/ollama/ollama-provider.ts';
import { createOpenAICompatibleProvider } from '../src/openai/openai-compatible-provider.ts';
import { createOpenAIProvider } from '../src/openai/openai-provider.ts';
import { jsonFixture } from './support/fixtures.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const KEY = 'sk-test-white-space-0123456789';
const retry = { maxRetries: 0, initialDelayMs: 1, sleep: async () => undefined, random: () => 0.5 };
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  delete process.env.OPENAI_API_KEY;
  delete process.env.ANTHROPIC_API_KEY;
  delete process.env.GOOGLE_GENERATIVE_AI_API_KEY;
  delete process.env.GEMINI_API_KEY;
  delete process.env.GOOGLE_API_KEY;
  delete process.env.OLLAMA_API_KEY;
});

const cases = [
  {
    name: 'OpenAI, the key in OPENAI_API_KEY ending in CR',
    variable: 'OPENAI_API_KEY',
    raw: `${KEY}\r`,
    sent: (headers: Record<string, unknown>) => String(headers.authorization).replace(/^Bearer /, ''),
    body: { error: { message: `Incorrect API key provided: ${KEY}.`, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } },
    model: (url: string) => createOpenAIProvider({ baseURL: `${url}/v1`, retry }).languageModel('gpt-4.1-mini'),
  },
  {
    name: 'Anthropic, the key in ANTHROPIC_API_KEY with a space and a line break around it',
    variable: 'ANTHROPIC_API_KEY',
    raw: ` ${KEY}\n`,
    sent: (headers: Record<string, unknown>) => (headers['x-api-key'] as string | undefined) ?? String(headers.authorization).replace(/^Bearer /, ''),
    body: { type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key ${KEY}` } },
    model: (url: string) => createAnthropicProvider({ baseURL: url, retry }).languageModel('claude-sonnet-4-5'),
  },
  {
    // The provider passes the key as read; the request's Headers trim it on the way out, and its echo is scrubbed.
    name: "Ollama's hosted service, the key in OLLAMA_API_KEY ending in CRLF",
    variable: 'OLLAMA_API_KEY',
    raw: `${KEY}\r\n`,
    sent: (headers: Record<string, unknown>) => String(headers.authorization).replace(/^Bearer /, ''),
    body: { error: `unauthorized: ${KEY}` },
    model: (url: string) => createOllamaProvider({ baseURL: url, retry }).languageModel('llama3.2'),
  },
];

describe('an API key with white space around it', () => {
  for (const testCase of cases) {
    it(`${testCase.name}: is sent trimmed, and its echo is scrubbed from the error`, async () => {
      process.env[testCase.variable] = testCase.raw;
      server = await startTestServer([{ status: 401, body: testCase.body }]);
      const error = await testCase.model(server.url).generate({ system: 's', prompt: 'p' }).then(
        () => expect.unreachable('the call should fail'),
        (failure: unknown) => failure as Error & { code?: string; cause?: unknown },
      );
      expect(testCase.sent(server.requests[0]!.headers)).toBe(KEY);
      expect(error.code).toBe('PROVIDER_AUTH');
      const everything = JSON.stringify({ error, message: error.message, stack: error.stack, cause: String(error.cause) });
      expect(everything).toContain('[REDACTED]');
      expect(everything).not.toContain(KEY);
    });
  }

  it('only white space in the variable is no key: PROVIDER_CONFIG saying it is set but empty after trimming, and nothing is sent', async () => {
    // Before: "no API key: set OPENAI_API_KEY", about a variable that was set.
    process.env.OPENAI_API_KEY = ' \r\n';
    server = await startTestServer([]);
    await expect(createOpenAIProvider({ baseURL: `${server.url}/v1`, retry }).languageModel('gpt-4.1-mini').generate({ system: 's', prompt: 'p' })).rejects.toMatchObject({
      code: 'PROVIDER_CONFIG',
      message: '[openai:gpt-4.1-mini] PROVIDER_CONFIG: OPENAI_API_KEY is set but is empty after trimming white space (3 characters of only spaces, tabs or line breaks): put the key in it (or, in code, pass apiKey to the provider)',
    });
    expect(server.requests).toHaveLength(0);
  });

  it('only white space in apiKey is no key: PROVIDER_CONFIG naming apiKey, not the variable it was not read from', async () => {
    // Before: "no API key: set ANTHROPIC_API_KEY", though the key given was apiKey.
    server = await startTestServer([]);
    await expect(createAnthropicProvider({ apiKey: '  \t', baseURL: server.url, retry }).languageModel('claude-sonnet-4-5').generate({ prompt: 'p' })).rejects.toMatchObject({
      code: 'PROVIDER_CONFIG',
      message: '[anthropic:claude-sonnet-4-5] PROVIDER_CONFIG: apiKey is empty after trimming white space (3 characters of only spaces, tabs or line breaks): pass the key itself, or leave apiKey out to read ANTHROPIC_API_KEY',
    });
    expect(server.requests).toHaveLength(0);
  });

  it('a variable of only white space does not hide the next one that holds the key (Gemini reads three)', async () => {
    // Before: the blank GOOGLE_GENERATIVE_AI_API_KEY was taken, and the call failed with no key though GEMINI_API_KEY held one.
    process.env.GOOGLE_GENERATIVE_AI_API_KEY = ' ';
    process.env.GEMINI_API_KEY = KEY;
    server = await startTestServer([{ body: jsonFixture('google/generate-content.json') }]);
    await createGoogleProvider({ baseURL: server.url, retry }).languageModel('gemini-2.5-flash').generate({ prompt: 'p' });
    expect(server.requests[0]!.headers['x-goog-api-key']).toBe(KEY);
  });

  it('an OpenAI-compatible apiKey of only white space is PROVIDER_CONFIG when the provider is made; one with white space around it is sent trimmed', async () => {
    expect(() => createOpenAICompatibleProvider({ name: 'groq', baseURL: 'http://127.0.0.1:9/v1', apiKey: ' \r\n' })).toThrow(expect.objectContaining({
      code: 'PROVIDER_CONFIG',
      message: '[groq] PROVIDER_CONFIG: createOpenAICompatibleProvider: apiKey is empty after trimming white space (3 characters of only spaces, tabs or line breaks): pass the key itself, or leave apiKey out for a server that needs none',
    }));
    server = await startTestServer([{ body: jsonFixture('openai/chat-completion.json') }]);
    await createOpenAICompatibleProvider({ name: 'groq', baseURL: `${server.url}/v1`, apiKey: ` ${KEY}\r\n`, retry }).languageModel('m').generate({ prompt: 'p' });
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });
});
