import { describe, expect, it } from 'vitest';
import { createPolicy } from './policy.ts';
import { grantHint, grantToAdd, shellQuote } from './grant-hint.ts';
import { defineTool } from '../spec/define-tool.ts';

describe('grantHint (review finding 8)', () => {
  it.each([
    [['/data/x.txt'], 'add the grant fs:write:/data/x.txt to the policy'],
    [['/data/a b.txt'], "add the grant 'fs:write:/data/a b.txt' to the policy"],
    [["/data/it's.txt"], "add the grant 'fs:write:/data/it'\\''s.txt' to the policy"],
    [['/data/*.txt'], 'no grant can name it exactly, because the scope "/data/*.txt" would be a pattern in a grant, covering more than this name (* is a wildcard there); use another name'],
    [['/a,b'], 'no grant can name it exactly, because the scope "/a,b" contains a comma; grant a pattern that covers it or use another name'],
    [[' /x'], 'no grant can name it exactly, because the scope " /x" starts or ends with white space; grant a pattern that covers it or use another name'],
  ])('%j → %s', (scopes, hint) => {
    expect(grantHint({ resource: 'fs', verbs: ['write'], scopes })).toBe(hint);
  });
  it('quotes single quotes for a POSIX shell', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});

describe('grantToAdd: the grant a denial carries as a field', () => {
  it.each([
    [['/data/x.txt'], 'fs:write:/data/x.txt'],
    [['/data/a b.txt'], 'fs:write:/data/a b.txt'],
    [['/a,b'], undefined],
    [[' /x'], undefined],
  ])('%j → %s, unquoted', (scopes, grant) => {
    expect(grantToAdd({ resource: 'fs', verbs: ['write'], scopes })).toBe(grant);
  });

  // A program names the file, the host or the key: one named like a pattern must not be answered with that pattern,
  // which the operator would add and so allow far more than the denied call (`fs:write:/**` for a file called `**`).
  it.each([
    ['fs', '/**'],
    ['fs', '/data/*'],
    ['memory', '**'],
    ['net', '**:80'],
    ['net', '*.com:443'],
    ['env', 'API_*'],
    ['notes', '*'],
    ['notes', 'true'],
    ['mcp', 'true'],
  ])('none for a %s scope a grant would read as a pattern: %s', (resource, scope) => {
    const capability = { resource, verbs: ['write'], scopes: [scope] };
    expect(grantToAdd(capability)).toBeUndefined();
    expect(grantHint(capability)).toMatch(/^no grant can name it exactly, because the scope .* would be a pattern in a grant, covering more than this name \((\*|true) is a wildcard there\); use another name$/);
  });

  it.each([
    ['notes', 'a*b', 'notes:write:a*b'],
    ['fs', '/data/true', 'fs:write:/data/true'],
    ['net', 'true:80', 'net:write:true:80'],
  ])('one where the text is literal in a %s grant: %s', (resource, scope, grant) => {
    expect(grantToAdd({ resource, verbs: ['write'], scopes: [scope] })).toBe(grant);
  });

  const write = defineTool(
    { name: 'tool.notes.Write', description: 'Writes a note.', args: [{ name: 'name', type: 'string' }], capabilities: ['notes:write'], scopes: (args) => [{ resource: 'notes', verbs: ['write'], scopes: [String(args.name)] }] },
    () => null,
  ).spec;

  it('is the denial’s `grant` (and in its JSON), the one its message suggests, for the scoped need', () => {
    const decision = createPolicy({ allow: ['tool.notes.*'], grants: ['notes:write:other'] }).authorize(write, { name: 'my note' });
    expect(decision.ok).toBe(false);
    const error = !decision.ok ? decision.error : undefined;
    expect([error?.code, error?.grant, error?.toJSON().grant]).toEqual(['POLICY_CAPABILITY_MISSING', 'notes:write:my note', 'notes:write:my note']);
    expect(error?.message).toContain("add the grant 'notes:write:my note' to the policy");
  });

  it('is absent when no grant can name the need, as the message says', () => {
    const decision = createPolicy({ allow: ['tool.notes.*'] }).authorize(write, { name: 'a,b' });
    const error = !decision.ok ? decision.error : undefined;
    expect(error?.code).toBe('POLICY_CAPABILITY_MISSING');
    expect(error?.grant).toBeUndefined();
    expect(error?.toJSON()).not.toHaveProperty('grant');
  });
});
