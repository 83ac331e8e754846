import { describe, expect, it } from 'vitest';
import { parseCapability } from './capability.ts';
import { grantsNameHost } from './net-named-grant.ts';

const names = (grants: string[], need: string) => grantsNameHost(grants.map(parseCapability), parseCapability(need));

describe('grantsNameHost', () => {
  it.each([
    [['net:read:localhost'], 'net:read:localhost:8080'],
    [['net:read:LOCALHOST:8080'], 'net:read:localhost:8080'],
    [['net:read:localhost:*'], 'net:read:localhost:8080'],
    [['net:read,write:127.0.0.1'], 'net:write:127.0.0.1:80'],
    [['net:*:[::1]'], 'net:write:[::1]:80'],
    [['*:read:internal.corp'], 'net:read:internal.corp:443'],
    [['net:read:*', 'net:read:db.corp'], 'net:read:db.corp:5432'],
  ])('%j names %s', (grants, need) => {
    expect(names(grants, need)).toBe(true);
  });

  it.each([
    [['net:read'], 'net:read:localhost:8080'],
    [['net:read:*'], 'net:read:localhost:8080'],
    [['net:read:**'], 'net:read:localhost:8080'],
    [['*:*'], 'net:read:localhost:8080'],
    [['net:read:*.example.com'], 'net:read:api.example.com:443'],
    [['net:read:127.*.*.*'], 'net:read:127.0.0.1:80'],
    [['net:read:localhost:9090'], 'net:read:localhost:8080'],
    [['net:read:127.0.0.1', 'net:write:*'], 'net:write:127.0.0.1:80'],
    [['fs:read:localhost'], 'net:read:localhost:80'],
    [[], 'net:read:localhost:80'],
  ])('%j covers %s only by a pattern, or not at all', (grants, need) => {
    expect(names(grants, need)).toBe(false);
  });
});
