/**
 * A key with white space around it (a CRLF `.env` file, a pasted space) is
 * sent trimmed, and a server that echoes the key it got echoes the trimmed
 * form, which must be scrubbed as the key itself is. Before, only the key as
 * configured was scrubbed, and the echo reached errors, and from there
 * transcripts and the terminal, whole.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../src/anthropic/anthropic-provider.ts';
import { createOpenAIProvider } from '../src/openai/openai-provider.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const KEY = 'sk-test-white-space-0123456789';
const retry = { maxRetries: 0, initialDelayMs: 1, sleep: async () => undefined, random: () => 0.5 };
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  delete process.env.OPENAI_API_KEY;
  delete process.env.ANTHROPIC_API_KEY;
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

  it('only white space is no key (PROVIDER_CONFIG), and nothing is sent', async () => {
    process.env.OPENAI_API_KEY = ' \r\n';
    server = await startTestServer([]);
    await expect(createOpenAIProvider({ baseURL: `${server.url}/v1`, retry }).languageModel('gpt-4.1-mini').generate({ system: 's', prompt: 'p' })).rejects.toMatchObject({ code: 'PROVIDER_CONFIG' });
    expect(server.requests).toHaveLength(0);
  });
});
