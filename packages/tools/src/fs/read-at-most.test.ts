import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readAtMost } from './read-at-most.ts';

let base: string;
beforeEach(() => {
  base = mkdtempSync(path.join(tmpdir(), 'askloop-read-'));
});
afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

/** Reads `content` written to a file, with `limit` and the file's size as the hint unless given. */
async function read(content: string, limit: number, grow = ''): Promise<string | undefined> {
  const file = path.join(base, 'f.txt');
  writeFileSync(file, content);
  const handle = await open(file, 'r');
  try {
    const size = (await handle.stat()).size;
    if (grow !== '') appendFileSync(file, grow);
    return (await readAtMost(handle, limit, size))?.toString('utf8');
  } finally {
    await handle.close();
  }
}

describe('readAtMost', () => {
  it('reads a file up to the limit whole, and gives up past it', async () => {
    expect(await read('', 0)).toBe('');
    expect(await read('abc', 3)).toBe('abc');
    expect(await read('abcd', 3)).toBeUndefined();
    const big = 'x'.repeat(200_000);
    expect(await read(big, 200_000)).toBe(big);
    expect(await read(big, 199_999)).toBeUndefined();
  });

  it('does not trust the size the file had when opened', async () => {
    expect(await read('abc', 100, 'y'.repeat(200))).toBeUndefined();
    expect(await read('', 100, 'short')).toBe('short');
  });
});
