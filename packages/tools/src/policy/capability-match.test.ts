import { describe, expect, it } from 'vitest';
import { parseGrant } from './capability.ts';
import { grantsSatisfy } from './capability-match.ts';

describe('grantsSatisfy', () => {
  const grants = ['fs:read,write:/data/**', 'net:read:*.example.com', 'memory:*'].map(parseGrant);
  it.each([
    ['fs:read', true],
    ['fs:delete', false],
    ['fs:write:/data/x.txt', true],
    ['fs:write:/etc/passwd', false],
    ['fs:read,write:/data/a,/data/b', true],
    ['fs:read,write:/data/a,/etc/b', false],
    ['net:read:api.example.com', true],
    ['net:write:api.example.com', false],
    ['memory:write:/anything', true],
    ['env:read', false],
  ])('%s → %s', (need, expected) => {
    expect(grantsSatisfy(grants, parseGrant(need))).toBe(expected);
  });
  it('a wildcard resource grant covers everything', () => {
    expect(grantsSatisfy([parseGrant('*:*')], parseGrant('secrets:read:TOKEN'))).toBe(true);
  });
});
