import { describe, expect, it } from 'vitest';
import { parseAndCheck } from './parse-and-check.ts';
import type { ToolCatalog, ToolSignature } from '../tool-signature.ts';

const signatures: Record<string, ToolSignature> = {
  'tool.fs.read': { name: 'tool.fs.read', arguments: [{ name: 'path', type: 'string', required: true }] },
  'tool.str.toupper': { name: 'tool.str.toupper', arguments: [{ name: 'text', type: 'string', required: true }] },
  'tool.str.tolower': { name: 'tool.str.tolower', arguments: [{ name: 'text', type: 'string', required: true }] },
};

/** A catalogue whose host policy refuses the fs group for want of a capability. */
const catalog: ToolCatalog = {
  get: (name) => signatures[name.toLowerCase().replace(/^(tool\.)?/, 'tool.')],
  names: () => Object.keys(signatures).sort(),
  check: (name) =>
    name.startsWith('tool.fs.')
      ? { code: 'POLICY_CAPABILITY_MISSING', message: 'tool.fs.Read needs capability fs:read:<path> — grant it with --grant fs:read:/data/**' }
      : undefined,
};

describe('the catalogue’s own policy decision', () => {
  it('refuses before anything runs, naming the host’s code and fix', () => {
    const result = parseAndCheck('command\n  set x = tool.fs.Read("/etc/passwd")\n  emit tool.str.ToUpper(x)\nendcommand\n', { mode: 'agent', tools: catalog });
    expect(result.diagnostics).toEqual([
      {
        code: 'SCRIPT_TOOL_DENIED',
        message:
          "Tool 'tool.fs.read' is not allowed here (POLICY_CAPABILITY_MISSING): tool.fs.Read needs capability fs:read:<path> — grant it with --grant fs:read:/data/**",
        line: 2,
        column: 11,
        numericCode: expect.any(Number),
      },
    ]);
  });

  it('suggests only tools the catalogue would allow', () => {
    const result = parseAndCheck('command\n  emit tool.fs.ToUpper("a")\nendcommand\n', { mode: 'agent', tools: catalog });
    expect(result.diagnostics[0]?.message).toContain("Did you mean 'tool.str.toupper'?");
  });
});
