import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolError } from '../errors/tool-error.ts';
import { defineTool } from '../spec/define-tool.ts';
import type { ToolSpec } from '../spec/tool-spec.ts';
import { createCallCounter, createCallCounters } from './call-counter.ts';
import { createPolicy, type PolicyOptions } from './policy.ts';

/** The code and message `createPolicy(options)` refuses `options` with, or undefined when it takes them. */
function policyRefusal(options: unknown): [string | undefined, string] | undefined {
  try {
    createPolicy(options as PolicyOptions);
  } catch (error) {
    return [(error as { code?: string }).code, (error as Error).message];
  }
  return undefined;
}

const tools: Record<string, ToolSpec> = {
  length: defineTool({ name: 'tool.str.Length', description: 'x', args: [{ name: 's', type: 'string' }] }, () => 0).spec,
  upper: defineTool({ name: 'tool.str.ToUpper', description: 'x' }, () => 0).spec,
  listLength: defineTool({ name: 'tool.list.Length', description: 'x' }, () => 0).spec,
  nested: defineTool({ name: 'tool.fdm.plan.Run', description: 'x' }, () => 0).spec,
  write: defineTool(
    { name: 'tool.fs.Write', description: 'x', args: [{ name: 'filepath', type: 'string' }], capabilities: ['fs:write'], scopes: (args) => [`fs:write:${String(args.filepath)}`], effect: 'write' },
    () => 0,
  ).spec,
  fetch: defineTool({ name: 'tool.http.Fetch', description: 'x', args: [{ name: 'host', type: 'string' }], capabilities: ['net:read'], scopes: (args) => [`net:read:${String(args.host)}`] }, () => 0).spec,
  admin: defineTool({ name: 'tool.account.Delete', description: 'x', trusted: true }, () => 0).spec,
};

type Row = [label: string, options: PolicyOptions, tool: keyof typeof tools, args: Record<string, string>, expected: string];

// The policy table. expected: 'allow', or 'CODE: message'.
const table: Row[] = [
  ['deny by default', {}, 'length', {}, "POLICY_NOT_ALLOWED: tool.str.Length is not in the policy's allow list (the allow list is empty (deny by default)); add 'tool.str.Length' or a pattern matching it to the allow list"],
  ['exact allow', { allow: ['tool.str.Length'] }, 'length', {}, 'allow'],
  ['allow without tool. prefix', { allow: ['str.*'] }, 'length', {}, 'allow'],
  ['allow is case-insensitive', { allow: ['TOOL.STR.*'] }, 'upper', {}, 'allow'],
  ['segment glob does not leak to other groups', { allow: ['tool.str.*'] }, 'listLength', {}, "POLICY_NOT_ALLOWED: tool.list.Length is not in the policy's allow list (allow list: tool.str.*); add 'tool.list.Length' or a pattern matching it to the allow list"],
  ['tool.* matches no three-segment name', { allow: ['tool.*'] }, 'length', {}, "POLICY_NOT_ALLOWED: tool.str.Length is not in the policy's allow list (allow list: tool.*); add 'tool.str.Length' or a pattern matching it to the allow list ('tool.*' matches one name segment after its dot; 'tool.**' matches every tool under it)"],
  ['bare * means everything (reference AllowAll)', { allow: ['*'] }, 'nested', {}, 'allow'],
  ['** crosses dotted groups', { allow: ['tool.fdm.**'] }, 'nested', {}, 'allow'],
  ['* stays in one segment of a dotted group', { allow: ['tool.fdm.*'] }, 'nested', {}, "POLICY_NOT_ALLOWED: tool.fdm.plan.Run is not in the policy's allow list (allow list: tool.fdm.*); add 'tool.fdm.plan.Run' or a pattern matching it to the allow list ('tool.fdm.*' matches one name segment after its dot; 'tool.fdm.**' matches every tool under it)"],
  ['suffix glob across groups', { allow: ['**.length'] }, 'listLength', {}, 'allow'],
  ['deny beats allow', { allow: ['**'], deny: ['tool.str.ToUpper'] }, 'upper', {}, "POLICY_DENIED: tool.str.ToUpper is denied by policy pattern 'tool.str.toupper'; remove that pattern from the deny list if the tool should run"],
  ['deny glob beats allow', { allow: ['tool.str.Length'], deny: ['tool.str.*'] }, 'length', {}, "POLICY_DENIED: tool.str.Length is denied by policy pattern 'tool.str.*'; remove that pattern from the deny list if the tool should run"],
  ['deny of another tool does not matter', { allow: ['**'], deny: ['tool.str.ToUpper'] }, 'length', {}, 'allow'],
  ['trust required', { allow: ['**'] }, 'admin', {}, 'POLICY_TRUST_REQUIRED: tool.account.Delete requires a trusted (config) context, which this policy is not (createPolicy({ trusted: true }) for trusted code only); a program cannot call it here: do without it'],
  ['trusted context', { allow: ['**'], trusted: true }, 'admin', {}, 'allow'],
  ['deny is checked before trust', { allow: ['**'], deny: ['tool.account.*'], trusted: true }, 'admin', {}, "POLICY_DENIED: tool.account.Delete is denied by policy pattern 'tool.account.*'; remove that pattern from the deny list if the tool should run"],
  // With the arguments known, the denial names the scoped grant the call needs, not the bare verb.
  ['capability missing', { allow: ['**'] }, 'write', { filepath: '/data/x' }, 'POLICY_CAPABILITY_MISSING: tool.fs.Write needs capability fs:write:/data/x — add the grant fs:write:/data/x to the policy'],
  ['wrong verb', { allow: ['**'], grants: ['fs:read:/data/**'] }, 'write', { filepath: '/data/x' }, 'POLICY_CAPABILITY_MISSING: tool.fs.Write needs capability fs:write:/data/x — add the grant fs:write:/data/x to the policy'],
  ['scope covers the path', { allow: ['**'], grants: ['fs:write:/data/**'] }, 'write', { filepath: '/data/a/b.txt' }, 'allow'],
  ['scope does not cover the path', { allow: ['**'], grants: ['fs:write:/data/**'] }, 'write', { filepath: '/etc/passwd' }, 'POLICY_CAPABILITY_MISSING: tool.fs.Write needs capability fs:write:/etc/passwd — add the grant fs:write:/etc/passwd to the policy'],
  ['prefix-alike directory is not covered', { allow: ['**'], grants: ['fs:write:/data/**'] }, 'write', { filepath: '/database/x' }, 'POLICY_CAPABILITY_MISSING: tool.fs.Write needs capability fs:write:/database/x — add the grant fs:write:/database/x to the policy'],
  ['grant without scope covers every scope', { allow: ['**'], grants: ['fs:write'] }, 'write', { filepath: '/anything' }, 'allow'],
  ['wildcard verb', { allow: ['**'], grants: ['fs:*:/data/**'] }, 'write', { filepath: '/data/x' }, 'allow'],
  ['wildcard resource', { allow: ['**'], grants: ['*:*'] }, 'write', { filepath: '/x' }, 'allow'],
  ['second grant covers', { allow: ['**'], grants: ['fs:read', 'fs:write:/out/*'] }, 'write', { filepath: '/out/x' }, 'allow'],
  ['host granted by suffix', { allow: ['**'], grants: ['net:read:*.example.com'] }, 'fetch', { host: 'api.example.com' }, 'allow'],
  ['host outside the suffix', { allow: ['**'], grants: ['net:read:*.example.com'] }, 'fetch', { host: 'example.org' }, 'HTTP_HOST_DENIED: tool.http.Fetch needs capability net:read:example.org — add the grant net:read:example.org to the policy'],
  ['capabilities only after allow', { grants: ['*:*'] }, 'write', { filepath: '/x' }, "POLICY_NOT_ALLOWED: tool.fs.Write is not in the policy's allow list (the allow list is empty (deny by default)); add 'tool.fs.Write' or a pattern matching it to the allow list"],
];

describe('policy table', () => {
  it.each(table)('%s', (_label, options, tool, args, expected) => {
    const decision = createPolicy(options).authorize(tools[tool] as ToolSpec, args);
    if (expected === 'allow') {
      expect(decision).toEqual({ ok: true });
    } else {
      expect(decision.ok).toBe(false);
      if (!decision.ok) {
        expect(`${decision.error.code}: ${decision.error.message}`).toBe(expected);
        expect(decision.error.referenceCode).toBe(1003);
      }
    }
  });
});

describe('policy', () => {
  it('check is static: capabilities without scopes, no arguments', () => {
    const policy = createPolicy({ allow: ['**'], grants: ['fs:write:/data/**'] });
    expect(policy.check(tools.write as ToolSpec)).toEqual({ ok: true });
    expect(policy.authorize(tools.write as ToolSpec, { filepath: '/etc/x' }).ok).toBe(false);
  });

  it('refuses limits.tools keys that are patterns or not tool names, which would limit nothing (review: silently ignored)', () => {
    const refusal = (key: string) => {
      try {
        createPolicy({ allow: ['**'], limits: { tools: { [key]: { perTurn: 1 } } } });
      } catch (error) {
        return [(error as { code?: string }).code, (error as Error).message];
      }
      return undefined;
    };
    expect(refusal('tool.str.*')).toEqual([
      'POLICY_PATTERN_INVALID',
      "limits.tools key 'tool.str.*' is a pattern, but per-tool limits take exact tool names (e.g. tool.http.Fetch); list each tool to limit, or use limits.perTurn/perSession for all calls",
    ]);
    expect(refusal('**')?.[0]).toBe('POLICY_PATTERN_INVALID');
    expect(refusal('http fetch')).toEqual([
      'POLICY_PATTERN_INVALID',
      "limits.tools key 'http fetch' is not a tool name; per-tool limits take exact tool names like tool.http.Fetch (dotted segments of letters, digits and _)",
    ]);
    expect(refusal('Fetch')?.[0]).toBe('POLICY_PATTERN_INVALID'); // no group: tool.fetch names no tool
    expect(refusal('http.Fetch')).toBeUndefined();
    expect(refusal('tool.fdm.plan.Run')).toBeUndefined();
  });

  it('refuses limits that would limit nothing: misspelt fields and values that are not whole numbers >= 0 (walkthrough: silently unlimited)', () => {
    const refusal = (limits: unknown) => {
      try {
        createPolicy({ allow: ['**'], limits } as PolicyOptions);
      } catch (error) {
        return [(error as { code?: string }).code, (error as Error).message];
      }
      return undefined;
    };
    expect(refusal({ perturn: 1 })).toEqual(['POLICY_PATTERN_INVALID', "limits has the unknown field 'perturn'; did you mean 'perTurn'? (the fields are perTurn, perSession, tools)"]);
    expect(refusal({ perTurn: '10' })).toEqual(['POLICY_PATTERN_INVALID', 'limits.perTurn must be a whole number >= 0, got "10"']);
    expect(refusal({ perSession: -1 })?.[0]).toBe('POLICY_PATTERN_INVALID');
    expect(refusal({ perTurn: 1.5 })?.[0]).toBe('POLICY_PATTERN_INVALID');
    expect(refusal({ perTurn: Number.NaN })).toEqual(['POLICY_PATTERN_INVALID', 'limits.perTurn must be a whole number >= 0, got NaN']);
    expect(refusal({ tools: { 'http.Fetch': 3 } })).toEqual(['POLICY_PATTERN_INVALID', "limits.tools['http.Fetch'] must be an object such as { perTurn: 10, perSession: 100 }, got 3"]);
    expect(refusal({ tools: { 'http.Fetch': { perturn: 3 } } })?.[1]).toBe("limits.tools['http.Fetch'] has the unknown field 'perturn'; did you mean 'perTurn'? (the fields are perTurn, perSession)");
    expect(refusal({ perTurn: 0, perSession: undefined, tools: { 'http.Fetch': { perTurn: 3, perSession: 20 } } })).toBeUndefined();
    expect(refusal(undefined)).toBeUndefined();
  });

  it("keeps a computed need's scope as written: ' todo' is not covered by the grant for todo (walkthrough: trimmed, so the tool acted on ' todo')", () => {
    const put = defineTool({ name: 'tool.notes.Put', description: 'x', args: [{ name: 'note', type: 'string' }], capabilities: ['notes:write'], scopes: (args) => [`notes:write:${String(args.note)}`] }, () => true).spec;
    const policy = createPolicy({ allow: ['**'], grants: ['notes:write:todo'] });
    expect(policy.authorize(put, { note: 'todo' })).toEqual({ ok: true });
    for (const note of [' todo', 'todo ', 'todo\n']) {
      const decision = policy.authorize(put, { note });
      expect(decision.ok ? undefined : decision.error.code).toBe('POLICY_CAPABILITY_MISSING');
    }
    expect(policy.checkCapability(put, 'notes:write: todo')?.message).toContain('starts or ends with white space');
    expect(policy.checkCapability(put, 'notes:write:todo')).toBeUndefined();
  });

  it("reports a scope function that throws or returns no list of needs as the tool's bug (TOOL_SPEC_INVALID), not a denial (walkthrough: TOOL_FAILED, shown as not allowed)", () => {
    const spec = (scopes: unknown) => defineTool({ name: 'tool.h.Put', description: 'x', args: [{ name: 'note', type: 'string' }], capabilities: ['notes:write'], scopes: scopes as () => string[] }, () => true).spec;
    const policy = createPolicy({ allow: ['**'], grants: ['notes:write'] });
    const refusal = (scopes: unknown) => {
      try {
        policy.authorize(spec(scopes), { note: 'todo' });
      } catch (error) {
        return [(error as ToolError).code, (error as ToolError).message];
      }
      return undefined;
    };
    const fix = "; this is a bug of the tool, not of the program or the policy: fix its spec (a scope function refuses arguments by throwing a ToolError)";
    const must = "tool.h.Put has a broken spec: its scopes must return a list of capability strings (such as 'notes:write:todo') or capability objects";
    expect(refusal(() => 42)).toEqual(['TOOL_SPEC_INVALID', `${must}, got 42${fix}`]);
    expect(refusal(() => 'notes:write:todo')).toEqual(['TOOL_SPEC_INVALID', `${must}, got "notes:write:todo"${fix}`]);
    expect(refusal(() => undefined)).toEqual(['TOOL_SPEC_INVALID', `${must}, got undefined${fix}`]);
    expect(refusal(() => ['notes:write:todo', 7])).toEqual(['TOOL_SPEC_INVALID', `${must}, got ["notes:write:todo",7] (an item is 7)${fix}`]);
    expect(refusal(() => [{ resource: 'notes' }])?.[0]).toBe('TOOL_SPEC_INVALID');
    expect(refusal(() => { throw new TypeError("Cannot read properties of undefined (reading 'path')"); })).toEqual(['TOOL_SPEC_INVALID', `${must}, but it threw: Cannot read properties of undefined (reading 'path')${fix}`]);
    // What it threw stays the cause, for its stack (review).
    const thrown = new TypeError('boom in scopes');
    expect(() => policy.authorize(spec(() => { throw thrown; }), { note: 'todo' })).toThrow(expect.objectContaining({ code: 'TOOL_SPEC_INVALID', cause: thrown }));
    // A ToolError is the scope function's refusal of the arguments (the fs tools' path with ..): it passes through.
    expect(refusal(() => { throw new ToolError('FS_ESCAPE', 'no ..'); })).toEqual(['FS_ESCAPE', 'no ..']);
    // Needs as strings or as capability objects are what it should return.
    expect(policy.authorize(spec(() => ['notes:write:todo', { resource: 'notes', verbs: ['write'], scopes: ['a,b'] }]), { note: 'todo' })).toEqual({ ok: true });
  });

  it('refuses an unknown option, so a misspelt deny or limits cannot fail open (walkthrough: silently ignored)', () => {
    expect(policyRefusal({ allow: ['**'], denny: ['tool.fs.*'] })).toEqual(['POLICY_PATTERN_INVALID', "createPolicy() has the unknown option 'denny'; did you mean 'deny'? (the options are allow, deny, grants, trusted, limits)"]);
    expect(policyRefusal({ allow: ['**'], Limits: { perTurn: 1 } })?.[1]).toContain("did you mean 'limits'?");
    expect(policyRefusal({ allow: 'tool.str.*' })).toEqual(['POLICY_PATTERN_INVALID', 'createPolicy() option \'allow\' must be a list, e.g. [\'tool.str.*\']; got "tool.str.*"']);
    expect(policyRefusal({ grants: 'fs:read' })?.[0]).toBe('POLICY_GRANT_INVALID');
    expect(policyRefusal({ allow: ['**'], deny: [], grants: [], trusted: false, limits: {} })).toBeUndefined();
  });

  it('refuses options that are not an object, saying how to write them (review: a list read as options 0, 1, …; null a raw TypeError; a number taken)', () => {
    expect(policyRefusal(['tool.str.*'])).toEqual(['POLICY_PATTERN_INVALID', 'createPolicy() takes an options object { allow, deny, grants, trusted, limits }, got a list; to allow these patterns write createPolicy({ allow: [...] })']);
    expect(policyRefusal(null)).toEqual(['POLICY_PATTERN_INVALID', 'createPolicy() takes an options object { allow, deny, grants, trusted, limits }, got null']);
    expect(policyRefusal(5)?.[1]).toBe('createPolicy() takes an options object { allow, deny, grants, trusted, limits }, got number 5');
    expect(policyRefusal(undefined)).toBeUndefined();
  });

  it('counts calls and enforces per-tool and total limits per turn and session', () => {
    const policy = createPolicy({ allow: ['**'], limits: { perTurn: 3, perSession: 4, tools: { 'Str.Length': { perTurn: 2, perSession: 3 } } } });
    const session = createCallCounter();
    const turn1 = createCallCounters(session);
    const length = tools.length as ToolSpec;
    const upper = tools.upper as ToolSpec;
    expect(policy.authorize(length, {}, turn1).ok).toBe(true);
    expect(policy.authorize(length, {}, turn1).ok).toBe(true);
    const third = policy.authorize(length, {}, turn1);
    expect(third.ok ? '' : `${third.error.code}: ${third.error.message}`).toBe('POLICY_CALL_LIMIT: tool.str.Length exceeded its call limit: tool.str.Length may be called 2 times per turn; the count starts again next turn: make the remaining calls then');
    expect(policy.authorize(upper, {}, turn1).ok).toBe(true);
    const overTurn = policy.authorize(upper, {}, turn1);
    expect(overTurn.ok ? '' : overTurn.error.message).toBe('tool.str.ToUpper exceeded its call limit: at most 3 tool calls are allowed per turn; the count starts again next turn: make the remaining calls then');
    expect(turn1.turn.total).toBe(3);
    const turn2 = createCallCounters(session);
    expect(policy.authorize(length, {}, turn2).ok).toBe(true);
    const perSessionTool = policy.authorize(length, {}, turn2);
    expect(perSessionTool.ok ? '' : perSessionTool.error.message).toBe('tool.str.Length exceeded its call limit: tool.str.Length may be called 3 times per session; no more are allowed in this session: finish without them');
    const perSessionTotal = policy.authorize(upper, {}, turn2);
    expect(perSessionTotal.ok ? '' : perSessionTotal.error.message).toBe('tool.str.ToUpper exceeded its call limit: at most 4 tool calls are allowed per session; no more are allowed in this session: finish without them');
    expect(session.total).toBe(4);
    expect(session.perTool.get('tool.str.length')).toBe(3);
  });

  it('a denied call does not consume the limit', () => {
    const policy = createPolicy({ allow: ['**'], grants: ['fs:write:/data/**'], limits: { perTurn: 1 } });
    const counters = createCallCounters();
    expect(policy.authorize(tools.write as ToolSpec, { filepath: '/etc/x' }, counters).ok).toBe(false);
    expect(policy.authorize(tools.write as ToolSpec, { filepath: '/data/x' }, counters).ok).toBe(true);
  });

  it('reports patterns and grants as given, canonicalised', () => {
    const policy = createPolicy({ allow: ['str.*', '*'], deny: ['TOOL.fs.**'], grants: ['fs:read:/x'] });
    expect(policy.allow).toEqual(['tool.str.*', '**']);
    expect(policy.deny).toEqual(['tool.fs.**']);
    expect(policy.grants).toEqual([{ resource: 'fs', verbs: ['read'], scopes: ['/x'] }]);
    expect(policy.satisfies('fs:read:/x')).toBe(true);
    expect(policy.satisfies('fs:read:/y')).toBe(false);
  });

  it('rejects malformed patterns and grants', () => {
    expect(() => createPolicy({ allow: ['tool.str.(x)'] })).toThrow(expect.objectContaining({ code: 'POLICY_PATTERN_INVALID' }));
    expect(() => createPolicy({ allow: ['tool..x'] })).toThrow(expect.objectContaining({ code: 'POLICY_PATTERN_INVALID' }));
    expect(() => createPolicy({ grants: ['fs'] })).toThrow(expect.objectContaining({ code: 'POLICY_GRANT_INVALID' }));
  });
});

describe('policy properties', () => {
  const segment = fc.stringMatching(/^[a-z][a-z0-9_]{0,6}$/);
  const toolName = fc.tuple(segment, segment).map(([group, name]) => `tool.${group}.${name}`);
  const spec = (name: string): ToolSpec => defineTool({ name, description: 'x' }, () => 0).spec;

  it('denies everything when nothing is allowed', () => {
    fc.assert(
      fc.property(toolName, (name) => {
        expect(createPolicy({ grants: ['*:*'], trusted: true }).check(spec(name)).ok).toBe(false);
      }),
    );
  });

  it('a matching deny pattern always wins over any allow pattern', () => {
    fc.assert(
      fc.property(toolName, fc.array(fc.constantFrom('**', '*', 'tool.**'), { minLength: 1 }), (name, allow) => {
        const decision = createPolicy({ allow: [...allow, name], deny: [name] }).check(spec(name));
        expect(decision.ok ? 'allowed' : decision.error.code).toBe('POLICY_DENIED');
      }),
    );
  });

  it('an exact allow admits exactly that tool', () => {
    fc.assert(
      fc.property(toolName, toolName, (allowed, other) => {
        const policy = createPolicy({ allow: [allowed] });
        expect(policy.check(spec(allowed)).ok).toBe(true);
        expect(policy.check(spec(other)).ok).toBe(allowed === other);
      }),
    );
  });
});

