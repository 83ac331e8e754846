import { describe, expect, it } from 'vitest';
import { scopeMatches, splitHostPort } from './scope-match.ts';

describe('scopeMatches (per resource, reference §2.4)', () => {
  it.each([
    ['fs', '/data/**', '/data/x/y', true],
    ['fs', '/data/*', '/data/x/y', false],
    ['fs', '*', '/any/thing', true],
    ['memory', '/ingest/**', '/ingest/queue/x', true],
    ['memory', '/ingest/**', '/other', false],
    ['net', 'api.example.com', 'api.example.com', true],
    ['net', 'API.Example.com', 'api.example.COM', true],
    ['net', '*.example.com', 'api.example.com', true],
    ['net', '*.example.com', 'example.com', false],
    ['net', '*.example.com', 'a.b.example.com', false],
    ['net', '**.example.com', 'a.b.example.com', true],
    ['net', '*.example.com', 'evil-example.com', false],
    ['net', '*.example.com', 'example.com.evil.org', false],
    ['net', '127.0.0.1', '127.0.0.1:8080', true],
    ['net', '127.0.0.1:8080', '127.0.0.1:8080', true],
    ['net', '127.0.0.1:8080', '127.0.0.1:9090', false],
    ['net', '127.0.0.1:8080', '127.0.0.1', false],
    ['net', '127.0.0.1:*', '127.0.0.1:1', true],
    ['net', '[::1]', '[::1]:8080', true],
    ['net', '[::1]', '[::2]', false],
    ['env', 'HOME*', 'HOME_DIR', true],
    ['env', '*PATH', 'GOPATH', true],
    ['env', '*PAT*', 'XPATHY', true],
    ['env', 'HOME', 'HOMEX', false],
    // An MCP server's name ignores case, as its tools' do (a grant of mcp:call:Every did not reach server Every's tools).
    ['mcp', 'Every', 'every', true],
    ['mcp', 'every', 'every', true],
    ['mcp', 'everything', 'every', false],
    ['mcp', 'ev*', 'every', false],
    ['custom', 'x', 'x', true],
    ['custom', 'X', 'x', false],
    ['custom', 'true', 'anything', true],
    ['custom', 'x*', 'xy', false],
  ])('%s: %s covers %s → %s', (resource, pattern, needed, expected) => {
    expect(scopeMatches(resource, pattern, needed)).toBe(expected);
  });

  it('splits hosts and ports', () => {
    expect(splitHostPort('Example.com:80')).toEqual({ host: 'example.com', port: '80' });
    expect(splitHostPort('[::1]:80')).toEqual({ host: '[::1]', port: '80' });
    expect(splitHostPort('::1')).toEqual({ host: '::1', port: undefined });
  });

  it('matches long adversarial scopes with many wildcards (regression: backtracking RegExp)', () => {
    const long = 'a'.repeat(64 * 1024);
    expect(scopeMatches('env', '*a*a*a*a*a*a*a*b', long)).toBe(false);
    expect(scopeMatches('net', '**.**.**.**.x.example.com', `${'a.'.repeat(20_000)}example.com`)).toBe(false);
    expect(scopeMatches('fs', '/**/a/**/a/**/a/**/b', `/${'a/'.repeat(20_000)}c`)).toBe(false);
  });
});
