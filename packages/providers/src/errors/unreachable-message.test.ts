/**
 * A request that got no answer says where it went (host and port), why in
 * words, and what to check, under `PROVIDER_NETWORK` — review: a refused
 * connection read "Connection error.: fetch failed".
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createOllamaProvider } from '../ollama/ollama-provider.ts';
import { createOpenAICompatibleProvider } from '../openai/openai-compatible-provider.ts';
import { hostAndPort, unreachableMessage } from './unreachable-message.ts';

const KEY = 'sk-unreachable-0123456789abcdef';

/** A loopback port nothing listens on: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const failure = async (call: Promise<unknown>) => call.then(() => expect.unreachable('the call succeeded'), (error: unknown) => error as { code: string; message: string });

describe('a refused connection', () => {
  it('names host:port, the reason and what to check, through an SDK (OpenAI-compatible) and through our own fetch (Ollama), never the key', async () => {
    const port = await closedPort();
    const said = `could not connect to 127.0.0.1:${port} (connection refused: nothing is listening on that port); check that the server is running there and that the provider's base URL points at it`;
    // The key in the base URL's path and query too: only the host and port are named.
    const compatible = createOpenAICompatibleProvider({ name: 'local', baseURL: `http://127.0.0.1:${port}/v1/${KEY}?key=${KEY}`, apiKey: KEY, retry: { maxRetries: 0 } }).languageModel('m');
    const ollama = createOllamaProvider({ baseURL: `http://127.0.0.1:${port}`, apiKey: KEY, retry: { maxRetries: 0 } }).languageModel('llama3');
    for (const model of [compatible, ollama]) {
      const error = await failure(model.generate({ prompt: 'hi' }));
      expect(error).toMatchObject({ code: 'PROVIDER_NETWORK' });
      expect(error.message).toContain(said);
      expect(JSON.stringify(error)).not.toContain(KEY);
    }
  });
});

describe('unreachableMessage', () => {
  const chain = (code: string) => new TypeError('fetch failed', { cause: Object.assign(new Error(`getaddrinfo ${code} api.example.com`), { code }) });

  it('tells a name that does not resolve from a port nobody listens on, and a connection cut before the answer', () => {
    expect(unreachableMessage('https://api.example.com', chain('ENOTFOUND'), 'fetch failed')).toBe(
      "could not connect to api.example.com:443 (the host name does not resolve); check the host name in the provider's base URL (and the DNS or proxy settings of this machine)",
    );
    expect(unreachableMessage('http://10.0.0.5:8000', new Error('Connection error.', { cause: chain('ECONNRESET') }), 'Connection error.')).toBe(
      "no answer from 10.0.0.5:8000 (the connection was reset before an answer came); check that the server is running there and that the provider's base URL points at it",
    );
    expect(unreachableMessage('https://[::1]:8443', chain('DEPTH_ZERO_SELF_SIGNED_CERT'), 'fetch failed')).toContain('could not connect to [::1]:8443 (its TLS certificate was refused: DEPTH_ZERO_SELF_SIGNED_CERT)');
    // No code that explains it: what the SDK said is kept, with where and what to check.
    expect(unreachableMessage('http://h:1', new Error('socket hang up'), 'socket hang up')).toBe("no answer from h:1 (socket hang up); check that the server is running there and that the provider's base URL points at it");
  });

  it('names the default port of the scheme when the URL has none', () => {
    expect(hostAndPort('http://localhost')).toBe('localhost:80');
    expect(hostAndPort('https://api.openai.com')).toBe('api.openai.com:443');
    expect(hostAndPort('http://127.0.0.1:11434')).toBe('127.0.0.1:11434');
  });
});
