import { describe, expect, it } from 'vitest';
import { grantHint, shellQuote } from './grant-hint.ts';

describe('grantHint (review finding 8)', () => {
  it.each([
    [['/data/x.txt'], 'add the grant fs:write:/data/x.txt to the policy'],
    [['/data/a b.txt'], "add the grant 'fs:write:/data/a b.txt' to the policy"],
    [['/data/*.txt'], "add the grant 'fs:write:/data/*.txt' to the policy"],
    [['/a,b'], 'no grant can name it exactly, because the scope "/a,b" contains a comma; grant a pattern that covers it or use another name'],
    [[' /x'], 'no grant can name it exactly, because the scope " /x" starts or ends with white space; grant a pattern that covers it or use another name'],
  ])('%j → %s', (scopes, hint) => {
    expect(grantHint({ resource: 'fs', verbs: ['write'], scopes })).toBe(hint);
  });
  it('quotes single quotes for a POSIX shell', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});
