/**
 * A provider's key never follows a redirect to another origin: the Gemini SDK sends it in `x-goog-api-key`, which
 * Node's `fetch` (and this package's transport, before) forwarded to whatever host a `307` named.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createGoogleProvider } from '../../src/google/google-provider.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { jsonFixture } from '../support/fixtures.ts';

const KEY = 'AIzaSyRedirect-0123456789abcdefghijk';
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('a redirect to another origin', () => {
  it('reaches the other host without the Gemini key', async () => {
    const other = await startTestServer([{ body: jsonFixture('google/generate-content.json') }]);
    servers.push(other);
    const path = '/v1beta/models/gemini-2.5-flash:generateContent';
    const api = await startTestServer([{ status: 307, headers: { location: `${other.url}${path}` } }]);
    servers.push(api);
    const model = createGoogleProvider({ apiKey: KEY, baseURL: api.url, retry: { maxRetries: 0 } }).languageModel('gemini-2.5-flash');
    await model.generate({ prompt: 'x' });
    expect(api.requests[0]?.headers['x-goog-api-key']).toBe(KEY);
    expect(other.requests).toHaveLength(1);
    expect(JSON.stringify(other.requests[0]?.headers)).not.toContain(KEY);
  });
});
