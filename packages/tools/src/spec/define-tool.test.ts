import { describe, expect, it } from 'vitest';
import { canonicalToolName } from './canonical-name.ts';
import { defineTool, type ToolSpecInput } from './define-tool.ts';

const noop = () => null;

describe('canonicalToolName (reference §2.1)', () => {
  it.each([
    ['tool.STR.toupper', 'tool.str.toupper'],
    ['str.ToUpper', 'tool.str.toupper'],
    ['tool.tool.str.ToUpper', 'tool.str.toupper'],
    ['  Tool.FDM.Plan.Run ', 'tool.fdm.plan.run'],
  ])('%s → %s', (input, output) => {
    expect(canonicalToolName(input)).toBe(output);
  });
});

describe('defineTool', () => {
  it('fills in defaults and keeps the display name', () => {
    const { spec } = defineTool({ name: 'str.ToUpper', description: ' Upper case. ', args: [{ name: 'input_string', type: 'string' }] }, noop);
    expect(spec).toEqual({
      name: 'tool.str.toupper',
      displayName: 'tool.str.ToUpper',
      group: 'str',
      description: 'Upper case.',
      arguments: [{ name: 'input_string', type: 'string', required: true, description: '' }],
      returns: 'any',
      capabilities: [],
      trusted: false,
      effect: 'read',
      idempotent: true,
    });
    expect(Object.isFrozen(spec)).toBe(true);
  });

  it('keeps dotted groups', () => {
    expect(defineTool({ name: 'tool.FDM.Plan.Run', description: 'x' }, noop).spec.group).toBe('fdm.plan');
  });

  it('makes write tools non-idempotent unless told otherwise', () => {
    expect(defineTool({ name: 'tool.a.B', description: 'x', effect: 'write' }, noop).spec.idempotent).toBe(false);
  });

  const invalid: [string, ToolSpecInput, string][] = [
    ['a name without group', { name: 'tool.Upper', description: 'x' }, 'name must look like tool.<group>.<Name>'],
    ['a name with spaces', { name: 'tool.a.b c', description: 'x' }, 'name must look like'],
    ['a duplicate argument', { name: 'tool.a.B', description: 'x', args: [{ name: 'x', type: 'int' }, { name: 'X', type: 'int' }] }, "argument 'X' is declared twice"],
    ['required after optional', { name: 'tool.a.B', description: 'x', args: [{ name: 'x', type: 'int', required: false }, { name: 'y', type: 'int' }] }, "required argument 'y' follows an optional one"],
    ['an unknown type', { name: 'tool.a.B', description: 'x', args: [{ name: 'x', type: 'number2' as 'int' }] }, "unknown type 'number2'"],
    // Each used to say only "has unknown type 'integer'": no list of the types, no hint.
    ['integer for int', { name: 'tool.a.B', description: 'x', args: [{ name: 'x', type: 'integer' as 'int' }] }, "argument 'x' has unknown type 'integer'; did you mean 'int'? (the types are string, int, float, number, bool, list, map, any, nil)"],
    ['object for map', { name: 'tool.a.B', description: 'x', args: [{ name: 'x', type: 'object' as 'int' }] }, "did you mean 'map'?"],
    ['dict for map', { name: 'tool.a.B', description: 'x', args: [{ name: 'x', type: 'dict' as 'int' }] }, "did you mean 'map'?"],
    ['array for list', { name: 'tool.a.B', description: 'x', args: [{ name: 'x', type: 'array' as 'int' }] }, "did you mean 'list'?"],
    // Review: these found Object's own properties ("did you mean 'function Object() { [native code] }'").
    ['a type named constructor', { name: 'tool.a.B', description: 'x', args: [{ name: 'x', type: 'constructor' as 'int' }] }, "argument 'x' has unknown type 'constructor' (the types are "],
    ['a type named __proto__', { name: 'tool.a.B', description: 'x', args: [{ name: 'x', type: '__proto__' as 'int' }] }, "argument 'x' has unknown type '__proto__' (the types are "],
    ['an argument without a type', { name: 'tool.a.B', description: 'x', args: [{ name: 'x' } as never] }, "argument 'x' has no type (the types are "],
    ['a near miss of a type', { name: 'tool.a.B', description: 'x', args: [{ name: 'x', type: 'strng' as 'int' }] }, "unknown type 'strng'; did you mean 'string'?"],
    ['a type in capitals', { name: 'tool.a.B', description: 'x', args: [{ name: 'x', type: 'String' as 'int' }] }, "did you mean 'string'?"],
    ['boolean for a bool result', { name: 'tool.a.B', description: 'x', returns: 'boolean' as 'bool' }, "tool spec tool.a.B: returns: unknown type 'boolean'; did you mean 'bool'? (the types are "],
    ['a wrongly typed default', { name: 'tool.a.B', description: 'x', args: [{ name: 'x', type: 'int', default: 'many' }] }, "default of argument 'x' is not an int"],
    ['a wrongly typed string default', { name: 'tool.a.B', description: 'x', args: [{ name: 'x', type: 'string', default: 3 }] }, "default of argument 'x' is not a string"],
    // It used to crash: "Cannot read properties of undefined (reading 'trim')".
    ['no name', { description: 'x' } as unknown as ToolSpecInput, "tool spec without a name: name is missing; give it one such as 'tool.<group>.<Name>'"],
    ['a name that is not a string', { name: 3, description: 'x' } as unknown as ToolSpecInput, 'name must be a string, not number'],
    ['an argument without a name', { name: 'tool.a.B', description: 'x', args: [{ type: 'int' }] } as unknown as ToolSpecInput, 'argument 1 has no name'],
    ['a required default', { name: 'tool.a.B', description: 'x', args: [{ name: 'x', type: 'int', required: true, default: 1 }] }, 'cannot have a default'],
    ['a bad effect', { name: 'tool.a.B', description: 'x', effect: 'delete' as 'write' }, 'effect must be read, write or external'],
    ['a bad timeout', { name: 'tool.a.B', description: 'x', timeoutMs: 0 }, 'timeoutMs must be a positive number'],
    // A JavaScript or JSON plugin's spec is never type-checked: a misspelt safety field must not silently mean "no".
    ['a misspelt requiresApproval', { name: 'tool.a.B', description: 'x', requiresApprovel: true } as unknown as ToolSpecInput, "unknown field 'requiresApprovel'; did you mean 'requiresApproval'?"],
    ['effects for effect', { name: 'tool.a.B', description: 'x', effects: 'external' } as unknown as ToolSpecInput, "unknown field 'effects'; did you mean 'effect'?"],
    ['timeoutMS for timeoutMs', { name: 'tool.a.B', description: 'x', timeoutMS: 50 } as unknown as ToolSpecInput, "did you mean 'timeoutMs'?"],
    ['arguments for args', { name: 'tool.a.B', description: 'x', arguments: [] } as unknown as ToolSpecInput, "unknown field 'arguments'; did you mean 'args'?"],
    ['parameters for args', { name: 'tool.a.B', description: 'x', parameters: [] } as unknown as ToolSpecInput, "unknown field 'parameters'; did you mean 'args'?"],
    ['returnType for returns', { name: 'tool.a.B', description: 'x', returnType: 'int' } as unknown as ToolSpecInput, "did you mean 'returns'?"],
    ['a flag that is not a boolean', { name: 'tool.a.B', description: 'x', requiresApproval: 'yes' } as unknown as ToolSpecInput, 'requiresApproval must be true or false, not "yes"'],
    ['args that are not a list', { name: 'tool.a.B', description: 'x', args: { name: 'x' } } as unknown as ToolSpecInput, 'args must be a list'],
    ['capabilities that are not strings', { name: 'tool.a.B', description: 'x', capabilities: [3] } as unknown as ToolSpecInput, 'capabilities must be a list of strings'],
    // A malformed need passed defineTool and failed the first run of an agent allowed the tool, naming no tool.
    ['a capability without verbs', { name: 'tool.a.B', description: 'x', capabilities: ['notes'] }, "tool spec tool.a.B: capability 'notes' has no verbs; write resource:verbs[:scopes]"],
    ['a capability with a bad resource', { name: 'tool.a.B', description: 'x', capabilities: ['no tes:read'] }, "has an invalid resource 'no tes'"],
    ['a wildcard need', { name: 'tool.a.B', description: 'x', capabilities: ['notes:*'] }, "capability 'notes:*' needs '*', which only a grant may hold"],
    ['a wildcard resource', { name: 'tool.a.B', description: 'x', capabilities: ['*:read'] }, 'which only a grant may hold'],
    ['no description', { name: 'tool.a.B' } as unknown as ToolSpecInput, 'description must be a string'],
    ['a misspelt argument field', { name: 'tool.a.B', description: 'x', args: [{ name: 'x', type: 'int', requierd: false }] } as unknown as ToolSpecInput, "argument 1: unknown field 'requierd'; did you mean 'required'?"],
  ];
  it('accepts a need with a fixed scope (as the MCP tools declare mcp:call:<server>)', () => {
    expect(defineTool({ name: 'tool.a.B', description: 'x', capabilities: ['notes:write:shared', 'fs:read'] }, noop).spec.capabilities).toEqual(['notes:write:shared', 'fs:read']);
  });
  it.each(invalid)('refuses %s', (_label, input, message) => {
    expect(() => defineTool(input, noop)).toThrow(expect.objectContaining({ code: 'TOOL_SPEC_INVALID', message: expect.stringContaining(message) }));
  });
});
