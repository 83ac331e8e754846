import { describe, expect, it } from 'vitest';
import { parseAndCheck } from './parse-and-check.ts';
import { MAX_TOOL_SUGGESTIONS } from './tool-check.ts';
import type { StaticArgument, ToolCatalog, ToolSignature } from '../tool-signature.ts';

const signatures: Record<string, ToolSignature> = {
  'tool.fs.read': { name: 'tool.fs.read', arguments: [{ name: 'path', type: 'string', required: true }] },
  'tool.str.toupper': { name: 'tool.str.toupper', arguments: [{ name: 'text', type: 'string', required: true }] },
  'tool.str.tolower': { name: 'tool.str.tolower', arguments: [{ name: 'text', type: 'string', required: true }] },
};

/**
 * A catalogue standing in for the host: its policy refuses `/private` paths
 * when the path is known, and it records what the check asked it.
 */
function catalog(asked: { name: string; args: readonly StaticArgument[] | undefined }[] = []): ToolCatalog {
  return {
    get: (name) => signatures[name.toLowerCase().replace(/^(tool\.)?/, 'tool.')],
    names: () => Object.keys(signatures).sort(),
    check: (name, args) => {
      asked.push({ name, args });
      const path = args?.[0];
      return name === 'tool.fs.read' && typeof path === 'string' && path.startsWith('/private')
        ? { code: 'POLICY_CAPABILITY_MISSING', message: `tool.fs.Read needs capability fs:read:${path} — add the grant fs:read:${path} to the policy`, grant: `fs:read:${path}` }
        : undefined;
    },
    suggest: (name) => (name.endsWith('.toupper') ? ['tool.str.toupper'] : []),
  };
}

describe('unknown tools', () => {
  it('asks the catalogue for a suggestion once per name, and for at most MAX_TOOL_SUGGESTIONS names: 2,000 unknown calls held the host 1.9 s', () => {
    const asked: string[] = [];
    const counting: ToolCatalog = { ...catalog(), suggest: (name) => (asked.push(name), name.endsWith('.toupperr') ? ['tool.str.toupper'] : []) };
    const lines = [...Array.from({ length: 300 }, () => '  emit tool.str.ToUpperr("a")'), ...Array.from({ length: 100 }, (_, index) => `  emit tool.str.T${index}("a")`)];
    const result = parseAndCheck(`command\n${lines.join('\n')}\nendcommand\n`, { mode: 'agent', tools: counting });
    expect(asked).toHaveLength(MAX_TOOL_SUGGESTIONS);
    expect(new Set(asked).size).toBe(MAX_TOOL_SUGGESTIONS);
    // Every call is still reported, and every call of the repeated name keeps its suggestion.
    expect(result.diagnostics.filter((diagnostic) => diagnostic.code === 'SCRIPT_TOOL_UNKNOWN')).toHaveLength(400);
    expect(result.diagnostics.filter((diagnostic) => diagnostic.message.includes("Did you mean 'tool.str.toupper'?"))).toHaveLength(300);
  });
});

describe('the catalogue’s policy decision is the only one', () => {
  it('refuses before anything runs, naming the host’s code and fix', () => {
    const result = parseAndCheck('command\n  emit "before"\n  set x = tool.fs.Read("/private/p.txt")\nendcommand\n', { mode: 'agent', tools: catalog() });
    expect(result.diagnostics).toEqual([
      {
        code: 'SCRIPT_TOOL_DENIED',
        severity: 'error',
        kind: 'permission',
        message: "Tool 'tool.fs.read' is not allowed here (POLICY_CAPABILITY_MISSING): tool.fs.Read needs capability fs:read:/private/p.txt — add the grant fs:read:/private/p.txt to the policy",
        line: 3,
        column: 11,
        numericCode: 1003,
        tool: 'tool.fs.Read',
        grant: { capability: 'fs:read:/private/p.txt', code: 'POLICY_CAPABILITY_MISSING' },
      },
    ]);
  });

  it('refuses before the run a call of a tool whose own check failed (its spec is broken), saying the tool is broken, not denied', () => {
    // Walkthrough: a scope function returning 42 read "is not allowed here (TOOL_FAILED)", which points at the policy.
    // Review: left to the run time, a program's earlier statements ran before the call that was known to fail.
    for (const code of ['TOOL_SPEC_INVALID', 'TOOL_FAILED']) {
      const broken: ToolCatalog = { ...catalog(), check: () => ({ code, message: 'scopes of tool.str.ToUpper must return a list of capability strings, got 42' }) };
      const result = parseAndCheck('command\n  emit tool.str.ToUpper("a")\nendcommand\n', { mode: 'agent', tools: broken });
      expect(result.diagnostics).toEqual([
        expect.objectContaining({ code: 'SCRIPT_TOOL_DENIED', message: `Tool 'tool.str.toupper' cannot be used: it is broken (${code}): scopes of tool.str.ToUpper must return a list of capability strings, got 42; do without it` }),
      ]);
    }
  });

  it('passes literal arguments, and marks computed ones unknown', () => {
    const asked: { name: string; args: readonly StaticArgument[] | undefined }[] = [];
    const source = 'command\n  set p = "/private/x"\n  emit tool.fs.Read(p)\n  emit tool.str.ToUpper(```plain```)\n  emit tool.str.ToLower({"a": [1, nil, true]})\n  emit tool.str.ToUpper([p])\nendcommand\n';
    const result = parseAndCheck(source, { mode: 'agent', tools: catalog(asked) });
    expect(result.ok).toBe(true);
    expect(asked).toEqual([
      { name: 'tool.fs.read', args: [undefined] },
      { name: 'tool.str.toupper', args: ['plain'] },
      { name: 'tool.str.tolower', args: [{ a: [1, null, true] }] },
      { name: 'tool.str.toupper', args: [undefined] },
    ]);
  });

  it("names a tool as its author wrote it when the catalogue gives a display name, in every tool message", () => {
    const shown: ToolCatalog = {
      ...catalog(),
      get: (name) => {
        const signature = catalog().get(name);
        return signature === undefined ? undefined : { ...signature, displayName: signature.name === 'tool.fs.read' ? 'tool.fs.Read' : 'tool.str.ToUpper' };
      },
    };
    const source = 'command\n  set x = tool.fs.read("/private/p.txt")\n  emit tool.STR.TOUPPER("a", "b")\nendcommand\n';
    const messages = parseAndCheck(source, { mode: 'agent', tools: shown }).diagnostics.map((diagnostic) => diagnostic.message);
    expect(messages).toEqual([
      "Tool 'tool.fs.Read' is not allowed here (POLICY_CAPABILITY_MISSING): tool.fs.Read needs capability fs:read:/private/p.txt — add the grant fs:read:/private/p.txt to the policy",
      expect.stringMatching(/^Tool 'tool\.str\.ToUpper' takes /),
    ]);
    // `tool` keeps the program's spelling: it points at the call, as line and column do.
    expect(parseAndCheck(source, { mode: 'agent', tools: shown }).diagnostics.map((diagnostic) => diagnostic.tool)).toEqual(['tool.fs.read', 'tool.STR.TOUPPER']);
  });

  it('takes its "did you mean" from the catalogue', () => {
    const result = parseAndCheck('command\n  emit tool.fs.ToUpper("a")\nendcommand\n', { mode: 'agent', tools: catalog() });
    expect(result.diagnostics[0]?.message).toContain("Did you mean 'tool.str.toupper'?");
  });

  it('leaves a single map literal to the run time when the catalogue does not know the named-argument rule', () => {
    const result = parseAndCheck('command\n  emit tool.str.ToUpper({"nope": 1})\nendcommand\n', { mode: 'agent', tools: catalog() });
    expect(result.diagnostics).toEqual([]);
  });
});

describe('a literal argument the host refuses', () => {
  it('is SCRIPT_TOOL_ARGUMENT_TYPE (kind check), not a permission denial', () => {
    const typed: ToolCatalog = {
      ...catalog(),
      check: (_name, args) => (typeof args?.[0] === 'number' ? { code: 'TOOL_ARGUMENT_INVALID', message: "tool.str.ToUpper argument 'text' expects a string, got number 5" } : undefined),
    };
    const result = parseAndCheck('command\n  emit "before"\n  emit tool.str.ToUpper(5)\n  emit tool.str.ToUpper("a")\nendcommand\n', { mode: 'agent', tools: typed });
    expect(result.ok).toBe(false);
    expect(result.diagnostics).toEqual([
      {
        code: 'SCRIPT_TOOL_ARGUMENT_TYPE',
        numericCode: 4,
        severity: 'error',
        kind: 'check',
        message: "Tool 'tool.str.toupper': tool.str.ToUpper argument 'text' expects a string, got number 5.",
        line: 3,
        column: 8,
        tool: 'tool.str.ToUpper',
      },
    ]);
  });
});
