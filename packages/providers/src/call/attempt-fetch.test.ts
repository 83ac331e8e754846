import { describe, expect, it } from 'vitest';
import { attemptFetch, runWithAttemptFetch } from './attempt-fetch.ts';

describe('attemptFetch', () => {
  it('reaches the fetch of the attempt it runs in, across awaits and concurrent attempts', async () => {
    const seen: string[] = [];
    const fetchOf = (name: string) => (async (input: string | URL | Request) => {
      seen.push(`${name} ${String(input)}`);
      return new Response(name);
    }) as typeof globalThis.fetch;
    const attempt = (name: string) =>
      runWithAttemptFetch(fetchOf(name), async () => {
        await new Promise((resolve) => setTimeout(resolve, name === 'a' ? 5 : 1));
        return (await attemptFetch(`http://x/${name}`)).text();
      });
    expect(await Promise.all([attempt('a'), attempt('b')])).toEqual(['a', 'b']);
    expect(seen.sort()).toEqual(['a http://x/a', 'b http://x/b']);
  });

  it('refuses a request made outside any attempt instead of escaping its timeout', async () => {
    await expect(attemptFetch('http://127.0.0.1:9/')).rejects.toThrow('outside a model attempt');
  });
});
