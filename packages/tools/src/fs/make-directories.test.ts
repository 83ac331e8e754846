import { existsSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeDirectories, makeDirectoriesSync } from './make-directories.ts';

const temp = mkdtempSync(join(tmpdir(), 'askloop-mkdirs-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
writeFileSync(join(temp, 'file'), 'x');
symlinkSync(join(temp, 'nowhere'), join(temp, 'dangling'));

const variants = [
  ['makeDirectories', (path: string) => makeDirectories(path)],
  ['makeDirectoriesSync', async (path: string) => makeDirectoriesSync(path)],
] as const;

describe.each(variants)('%s', (name, make) => {
  it('creates a directory and its missing parents, and accepts one that exists', async () => {
    const target = join(temp, name, 'a', 'b', 'c');
    await make(target);
    expect(statSync(target).isDirectory()).toBe(true);
    await make(target);
    await make(join(temp, name, 'a'));
    expect(statSync(target).isDirectory()).toBe(true);
  });

  it('fails with the mkdir error mkdir -p gives: over a file or a dangling link (EEXIST), under a file (ENOTDIR) or a dangling link (ENOENT)', async () => {
    await expect(make(join(temp, 'file'))).rejects.toMatchObject({ code: 'EEXIST', syscall: 'mkdir' });
    await expect(make(join(temp, 'file', 'below'))).rejects.toMatchObject({ code: 'ENOTDIR', syscall: 'mkdir' });
    await expect(make(join(temp, 'dangling'))).rejects.toMatchObject({ code: 'EEXIST', syscall: 'mkdir' });
    await expect(make(join(temp, 'dangling', 'below'))).rejects.toMatchObject({ code: 'ENOENT', syscall: 'mkdir', path: join(temp, 'dangling', 'below') });
  });

  it('takes a path relative to the working directory', async () => {
    const relative = join('.', `askloop-mkdirs-relative-${name}`, 'x');
    try {
      await make(relative);
      expect(statSync(relative).isDirectory()).toBe(true);
    } finally {
      rmSync(join('.', `askloop-mkdirs-relative-${name}`), { recursive: true, force: true });
    }
  });

  // Node's own `recursive` never returns here: it spins between ENOENT for the child and EEXIST for /proc.
  it.runIf(existsSync('/proc/self'))('fails at once under /proc, where the kernel answers ENOENT for a child of an existing folder', async () => {
    await expect(make('/proc/askloop-nowhere/below')).rejects.toMatchObject({ code: 'ENOENT', path: '/proc/askloop-nowhere' });
  });
});

describe('makeDirectories at once', () => {
  it('lets callers racing for the same folders all succeed', async () => {
    const target = join(temp, 'race', 'x', 'y');
    await Promise.all(Array.from({ length: 8 }, () => makeDirectories(target)));
    expect(statSync(target).isDirectory()).toBe(true);
  });
});
