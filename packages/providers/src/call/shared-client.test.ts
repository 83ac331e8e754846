import { describe, expect, it } from 'vitest';
import { sharedClient } from './shared-client.ts';

describe('sharedClient', () => {
  it('builds once for one config, also for concurrent first calls', async () => {
    const configs: unknown[] = [];
    const client = sharedClient((config) => {
      configs.push(config);
      return { id: configs.length };
    });
    const [first, second] = await Promise.all([client(['key', 'url']), client(['key', 'url'])]);
    const third = await client(['key', 'url']);
    expect(first).toBe(second);
    expect(third).toBe(first);
    expect(configs).toEqual([['key', 'url']]);
  });

  it('builds a new client when the config changes, and keeps the newest', async () => {
    let builds = 0;
    const client = sharedClient(([key]) => ({ key, build: ++builds }));
    const a = await client(['a']);
    const b = await client(['b']);
    expect([a, b]).toEqual([{ key: 'a', build: 1 }, { key: 'b', build: 2 }]);
    expect(await client(['b'])).toBe(b);
  });

  it('does not keep a failed build', async () => {
    let calls = 0;
    const client = sharedClient(() => {
      calls++;
      if (calls === 1) throw new Error('SDK not installed');
      return 'client';
    });
    await expect(client([])).rejects.toThrow('SDK not installed');
    await expect(client([])).resolves.toBe('client');
    expect(calls).toBe(2);
  });
});
