import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hostFor, type TestHost } from '../../test/tool-test-host.ts';
import { normalizeVirtualPath } from './fs-confine.ts';
import { createFileSystemTools } from './fs-tools.ts';

let base: string;
let root: string;
let outside: string;
let host: TestHost;

beforeEach(() => {
  base = mkdtempSync(path.join(tmpdir(), 'askloop-fs-'));
  root = path.join(base, 'root');
  outside = path.join(base, 'outside');
  mkdirSync(path.join(root, 'data', 'sub'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(root, 'data', 'a.txt'), 'hello');
  writeFileSync(path.join(root, 'data', 'sub', 'b.txt'), 'deep');
  writeFileSync(path.join(outside, 'secret.txt'), 'top secret');
  symlinkSync(outside, path.join(root, 'data', 'escape'));
  symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'data', 'secret-link.txt'));
  symlinkSync(path.join(outside, 'missing.txt'), path.join(root, 'data', 'dangling.txt'));
  symlinkSync(path.join(root, 'data', 'a.txt'), path.join(root, 'data', 'inside-link.txt'));
  host = hostFor([createFileSystemTools({ root, maxReadBytes: 100, maxWriteBytes: 10, maxListEntries: 50 })], { allow: ['tool.fs.*'], grants: ['fs:read,write,delete'] });
});
afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

describe('normalizeVirtualPath', () => {
  it.each([
    ['data/a.txt', '/data/a.txt'],
    ['/data//./a.txt', '/data/a.txt'],
    ['', '/'],
    ['.', '/'],
  ])('%s → %s', (input, output) => {
    expect(normalizeVirtualPath(input)).toBe(output);
  });
  it.each(['..', '/data/../x', 'a/..', '/x\0y'])('refuses %j', (input) => {
    expect(() => normalizeVirtualPath(input)).toThrow(expect.objectContaining({ code: 'FS_ESCAPE' }));
  });
});

describe('tool.fs.* inside the root', () => {
  it('reads, writes, appends, lists, stats, moves and deletes', async () => {
    expect(await host.call('tool.fs.Read', ['/data/a.txt'])).toBe('hello');
    expect(await host.call('tool.fs.Read', ['data/inside-link.txt'])).toBe('hello');
    expect(await host.call('tool.fs.Write', ['/new/dir/c.txt', 'abc'])).toEqual({ path: '/new/dir/c.txt', bytes: 3 });
    expect(await host.call('tool.fs.Append', ['/new/dir/c.txt', 'def'])).toEqual({ path: '/new/dir/c.txt', bytes: 3 });
    expect(readFileSync(path.join(root, 'new', 'dir', 'c.txt'), 'utf8')).toBe('abcdef');
    expect(await host.call('tool.fs.List', ['/data/sub'])).toEqual([{ name: 'b.txt', path: '/data/sub/b.txt', type: 'file', size: 4 }]);
    const listed = (await host.call('tool.fs.List', ['/', true])) as { path: string; type: string }[];
    expect(listed.map((entry) => entry.path)).toContain('/data/sub/b.txt');
    expect(listed.find((entry) => entry.path === '/data/escape')).toMatchObject({ type: 'symlink', size: 0 });
    expect(listed.map((entry) => entry.path).filter((entry) => entry.includes('secret.txt'))).toEqual([]);
    expect(await host.call('tool.fs.Stat', ['/data/a.txt'])).toMatchObject({ path: '/data/a.txt', type: 'file', size: 5 });
    expect(await host.call('tool.fs.Stat', ['/data/none'])).toBeNull();
    expect(await host.call('tool.fs.Mkdir', ['/made/x'])).toEqual({ path: '/made/x' });
    expect(await host.call('tool.fs.Move', ['/new/dir/c.txt', '/made/x/c.txt'])).toEqual({ path: '/made/x/c.txt' });
    expect(await host.call('tool.fs.Delete', ['/made/x/c.txt'])).toBe(true);
    expect(existsSync(path.join(root, 'made', 'x', 'c.txt'))).toBe(false);
    expect(await host.call('tool.fs.Delete', ['/made/x'])).toBe(true);
  });

  it.each([
    ['Read', ['/data/none.txt'], 'FS_NOT_FOUND', "tool.fs.Read: no file or directory at '/data/none.txt' (pack fs)"],
    ['Read', ['/data'], 'FS_PATH_TYPE', "tool.fs.Read: '/data' is not a file (pack fs)"],
    ['Read', [42], 'TOOL_ARGUMENT_INVALID', "tool.fs.Read argument 'filepath' expects a string (numbers are not converted), got number 42"],
    ['Write', ['/x.txt', 'way too long'], 'FS_TOO_LARGE', 'tool.fs.Write: content is 12 bytes; the limit is 10 (pack fs)'],
    ['Write', ['/x.txt'], 'TOOL_ARGUMENT_MISSING', "tool.fs.Write needs argument 'content' (string); call it as tool.fs.Write(filepath: string, content: string)"],
    ['Delete', ['/data/sub'], 'FS_PATH_TYPE', "tool.fs.Delete: directory '/data/sub' is not empty (pack fs)"],
    ['Delete', ['/'], 'FS_PATH_TYPE', 'tool.fs.Delete: the fs root itself cannot be deleted (pack fs)'],
    ['Delete', ['/data/none'], 'FS_NOT_FOUND', "tool.fs.Delete: no file or directory at '/data/none' (pack fs)"],
    ['Move', ['/data/a.txt', '/data/sub/b.txt'], 'FS_EXISTS', "tool.fs.Move: destination '/data/sub/b.txt' already exists (pack fs)"],
    ['List', ['/data/a.txt'], 'FS_PATH_TYPE', "tool.fs.List: '/data/a.txt' is not a directory (pack fs)"],
  ])('%s(%j) fails with %s', async (name, args, code, message) => {
    const error = await host.fail(`tool.fs.${name}`, args);
    expect([error.code, error.message]).toEqual([code, message]);
  });

  it('limits read size', async () => {
    writeFileSync(path.join(root, 'big.txt'), 'x'.repeat(101));
    expect((await host.fail('tool.fs.Read', ['/big.txt'])).code).toBe('FS_TOO_LARGE');
  });
});

describe('tool.fs.* confinement', () => {
  it.each([
    ['Read', ['../outside/secret.txt'], "tool.fs.Read: path '../outside/secret.txt' contains '..'; paths must stay inside the fs root (pack fs)"],
    ['Read', ['/data/../../outside/secret.txt'], "tool.fs.Read: path '/data/../../outside/secret.txt' contains '..'; paths must stay inside the fs root (pack fs)"],
    ['Read', ['/data/secret-link.txt'], "tool.fs.Read: path '/data/secret-link.txt' resolves outside the fs root through a symlink (pack fs)"],
    ['Read', ['/data/escape/secret.txt'], "tool.fs.Read: path '/data/escape/secret.txt' resolves outside the fs root through a symlink (pack fs)"],
    ['Write', ['/data/escape/new.txt', 'x'], "tool.fs.Write: path '/data/escape/new.txt' resolves outside the fs root through a symlink (pack fs)"],
    ['Write', ['/data/dangling.txt', 'x'], "tool.fs.Write: path '/data/dangling.txt' goes through a dangling symlink (pack fs)"],
    ['Write', ['/data/secret-link.txt', 'x'], "tool.fs.Write: path '/data/secret-link.txt' resolves outside the fs root through a symlink (pack fs)"],
    ['List', ['/data/escape'], "tool.fs.List: path '/data/escape' resolves outside the fs root through a symlink (pack fs)"],
    ['Mkdir', ['/data/escape/sub'], "tool.fs.Mkdir: path '/data/escape/sub' resolves outside the fs root through a symlink (pack fs)"],
    ['Delete', ['/data/secret-link.txt'], "tool.fs.Delete: path '/data/secret-link.txt' resolves outside the fs root through a symlink (pack fs)"],
    ['Move', ['/data/a.txt', '/data/escape/a.txt'], "tool.fs.Move: path '/data/escape/a.txt' resolves outside the fs root through a symlink (pack fs)"],
  ])('%s(%j) fails with FS_ESCAPE', async (name, args, message) => {
    const error = await host.fail(`tool.fs.${name}`, args);
    expect([error.code, error.message]).toEqual(['FS_ESCAPE', message]);
    expect(readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
    expect(existsSync(path.join(outside, 'new.txt'))).toBe(false);
    expect(existsSync(path.join(outside, 'missing.txt'))).toBe(false);
  });

  it('is off unless granted, and grants are scoped by path', async () => {
    const scoped = hostFor([createFileSystemTools({ root })], { allow: ['tool.fs.*'], grants: ['fs:read:/data/**', 'fs:write:/out/*'] });
    expect(await scoped.call('tool.fs.Read', ['/data/sub/b.txt'])).toBe('deep');
    const write = await scoped.fail('tool.fs.Write', ['/data/x.txt', 'x']);
    expect([write.code, write.message]).toEqual(['POLICY_CAPABILITY_MISSING', 'tool.fs.Write needs capability fs:write:/data/x.txt — grant it with --grant fs:write:/data/x.txt']);
    expect(await scoped.call('tool.fs.Write', ['out/x.txt', 'x'])).toEqual({ path: '/out/x.txt', bytes: 1 });
    expect((await scoped.fail('tool.fs.Write', ['/out/deeper/x.txt', 'x'])).code).toBe('POLICY_CAPABILITY_MISSING');
    expect((await scoped.fail('tool.fs.Delete', ['/out/x.txt'])).message).toBe('tool.fs.Delete needs capability fs:delete — grant it with --grant fs:delete');
    const none = hostFor([createFileSystemTools({ root })], { allow: ['tool.fs.*'] });
    expect((await none.fail('tool.fs.Read', ['/data/a.txt'])).message).toBe('tool.fs.Read needs capability fs:read — grant it with --grant fs:read');
  });

  it('Move needs the grant on both paths', async () => {
    const scoped = hostFor([createFileSystemTools({ root })], { allow: ['tool.fs.*'], grants: ['fs:write:/data/**'] });
    expect((await scoped.fail('tool.fs.Move', ['/data/a.txt', '/elsewhere/a.txt'])).capability).toBe('fs:write:/elsewhere/a.txt');
  });

  it('reports a missing root', async () => {
    const missing = hostFor([createFileSystemTools({ root: path.join(base, 'nope') })], { allow: ['**'], grants: ['fs:read'] });
    expect((await missing.fail('tool.fs.Read', ['/a'])).message).toBe(`tool.fs.Read: fs root '${path.join(base, 'nope')}' does not exist (pack fs)`);
  });
});
