import { describe, expect, it } from 'vitest';
import { lazyImport } from './lazy-import.ts';

describe('lazyImport', () => {
  it('loads once and shares the module', async () => {
    let loads = 0;
    const load = lazyImport(async () => ({ id: ++loads }));
    expect(loads).toBe(0);
    const [first, second] = await Promise.all([load(), load()]);
    expect(first).toBe(second);
    expect(loads).toBe(1);
  });

  it('tries again after a failed load', async () => {
    let calls = 0;
    const load = lazyImport(async () => {
      calls++;
      if (calls === 1) throw new Error('not installed');
      return 'sdk';
    });
    await expect(load()).rejects.toThrow('not installed');
    await expect(load()).resolves.toBe('sdk');
  });
});
