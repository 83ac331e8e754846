import { describe, expect, it } from 'vitest';
import { formatCapability, parseGrant } from './capability.ts';

describe('parseGrant', () => {
  it.each([
    ['fs:read:/tmp/**', { resource: 'fs', verbs: ['read'], scopes: ['/tmp/**'] }],
    ['FS:Read,Write:/a,/b', { resource: 'fs', verbs: ['read', 'write'], scopes: ['/a', '/b'] }],
    ['net:read:localhost:8080', { resource: 'net', verbs: ['read'], scopes: ['localhost:8080'] }],
    ['memory:write', { resource: 'memory', verbs: ['write'], scopes: [] }],
    ['*:*', { resource: '*', verbs: ['*'], scopes: [] }],
  ])('parses %s', (text, expected) => {
    expect(parseGrant(text)).toEqual(expected);
  });

  it.each([
    ['fs', 'has no verbs'],
    ['fs:', "has invalid verbs ''"],
    ['fs:read,:x', "has invalid verbs 'read,'"],
    ['f s:read', "has an invalid resource 'f s'"],
    [':read', "has an invalid resource ''"],
    ['fs:read:', 'has an empty scope'],
    ['fs:read:/a,,/b', 'has an empty scope'],
  ])('rejects %s (%s) with an example of the right form', (text, why) => {
    expect(() => parseGrant(text)).toThrow(
      expect.objectContaining({ code: 'POLICY_GRANT_INVALID', referenceCode: 18, message: `capability '${text}' ${why}; write resource:verbs[:scopes], e.g. fs:read:/data/** or net:read:*.example.com` }),
    );
  });

  it('formats back', () => {
    expect(formatCapability(parseGrant('fs:read,write:/a,/b'))).toBe('fs:read,write:/a,/b');
  });
});
