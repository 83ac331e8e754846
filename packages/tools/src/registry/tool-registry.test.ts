import { describe, expect, it } from 'vitest';
import { createPolicy } from '../policy/policy.ts';
import { defineTool } from '../spec/define-tool.ts';
import { defineToolPack } from './tool-pack.ts';
import { createToolRegistry } from './tool-registry.ts';

const upper = defineTool({ name: 'tool.str.ToUpper', description: 'Upper case.\nMore text.', args: [{ name: 'input_string', type: 'string' }], returns: 'string' }, () => null);
const lower = defineTool({ name: 'tool.str.ToLower', description: 'Lower case.', args: [{ name: 'input_string', type: 'string' }], returns: 'string' }, () => null);
const write = defineTool(
  { name: 'tool.fs.Write', description: 'Write.', args: [{ name: 'filepath', type: 'string' }, { name: 'mode', type: 'int', required: false }], effect: 'write', capabilities: ['fs:write'], returns: 'map' },
  () => null,
);

describe('createToolRegistry', () => {
  const registry = createToolRegistry([defineToolPack('str', [upper, lower]), () => defineToolPack('fs', [write])]);

  it('implements ToolCatalog: case-insensitive lookup with or without the tool. prefix', () => {
    expect(registry.get('tool.STR.toupper')?.displayName).toBe('tool.str.ToUpper');
    expect(registry.get('str.ToUpper')?.name).toBe('tool.str.toupper');
    expect(registry.get('tool.str.missing')).toBeUndefined();
    expect(registry.names()).toEqual(['tool.fs.write', 'tool.str.tolower', 'tool.str.toupper']);
  });

  it('knows which pack provides a tool', () => {
    expect(registry.lookup('fs.write')?.pack).toBe('fs');
    expect(registry.packs()).toEqual(['str', 'fs']);
  });

  it('throws TOOL_NOT_FOUND with did-you-mean hints', () => {
    expect(() => registry.require('tool.str.ToUper')).toThrow(
      expect.objectContaining({ code: 'TOOL_NOT_FOUND', referenceCode: 3, message: "tool 'tool.str.ToUper' not found; did you mean tool.str.ToUpper, tool.str.ToLower?" }),
    );
    expect(() => registry.require('tool.zzz.qqqqqqq')).toThrow("tool 'tool.zzz.qqqqqqq' not found");
  });

  it('rejects duplicate tool names across packs, naming both packs', () => {
    expect(() => createToolRegistry([defineToolPack('a', [upper]), defineToolPack('b', [upper])])).toThrow(
      expect.objectContaining({ code: 'TOOL_DUPLICATE', message: "tool.str.ToUpper from pack 'b' is already registered by pack 'a'" }),
    );
  });

  it('defineToolPack refuses two tools of one pack whose names differ only in case (TOOL_SPEC_INVALID), naming both', () => {
    const shout = defineTool({ name: 'tool.str.TOUPPER', description: 'Upper case again.', args: [{ name: 'input_string', type: 'string' }], returns: 'string' }, () => null);
    expect(() => defineToolPack('str', [upper, lower, shout])).toThrow(
      expect.objectContaining({ code: 'TOOL_SPEC_INVALID', message: "tool pack 'str' has two tools named 'tool.str.ToUpper' and 'tool.str.TOUPPER'; tool names are case-insensitive, so give each its own name" }),
    );
    expect(() => defineToolPack('str', 'upper' as never)).toThrow(expect.objectContaining({ code: 'TOOL_SPEC_INVALID' }));
  });

  it('rejects duplicate pack names', () => {
    expect(() => createToolRegistry([defineToolPack('a', [upper]), defineToolPack('a', [lower])])).toThrow(expect.objectContaining({ code: 'TOOL_DUPLICATE' }));
  });

  it('renders a compact catalogue of only the allowed tools', () => {
    expect(registry.catalogue(createPolicy({ allow: ['tool.str.*'] }))).toBe(
      [
        'Tools you may call (positional arguments, or one map of named arguments; `?` marks optional):',
        'tool.str.ToLower(input_string: string) -> string - Lower case.',
        'tool.str.ToUpper(input_string: string) -> string - Upper case.',
      ].join('\n'),
    );
    expect(registry.catalogue(createPolicy({ allow: ['**'], grants: ['fs:write:/data/**'] }), { heading: '' }).split('\n')[0]).toBe(
      'tool.fs.Write(filepath: string, mode?: int) -> map [write] - Write.',
    );
    expect(registry.catalogue(createPolicy({ allow: ['**'] }), { heading: '' })).not.toContain('tool.fs.Write');
    expect(registry.catalogue(createPolicy(), { heading: '' })).toBe('(no tools are allowed)');
  });
});

/** The code and message of what `make` throws, or undefined when it throws nothing. */
function refusal(make: () => unknown): [string | undefined, string] | undefined {
  try {
    make();
  } catch (error) {
    return [(error as { code?: string }).code, (error as Error).message];
  }
  return undefined;
}

describe('packs that are not packs', () => {
  const good = defineTool({ name: 'tool.ops.Echo', description: 'Echo.', args: [], returns: 'string' }, () => 'x');

  it('are refused with TOOL_SPEC_INVALID naming the pack and the tool (walkthrough: a raw TypeError, or a bad tool accepted)', () => {
    expect(refusal(() => createToolRegistry([{ name: 'x' } as never]))).toEqual(['TOOL_SPEC_INVALID', 'tool pack \'x\': tools must be a list of tools built with defineTool(spec, handler)']);
    expect(refusal(() => createToolRegistry([42 as never]))?.[1]).toBe('42 is not a tool pack: build it with defineToolPack(name, tools), or pass a factory that returns one');
    expect(refusal(() => defineToolPack('ops', [good, { spec: 1 } as never]))).toEqual(['TOOL_SPEC_INVALID', 'tool pack \'ops\', tool 2: {"spec":1} is not a tool: build each with defineTool(spec, handler)']);
    expect(refusal(() => createToolRegistry([{ name: 'ops', tools: [good, { spec: good.spec }] } as never]))?.[1]).toContain("tool pack 'ops', tool 2:");
    expect(refusal(() => createToolRegistry([defineToolPack('ops', [good])]))).toBeUndefined();
  });

  it('given instead of a list are refused with TOOL_SPEC_INVALID saying a list is wanted (review: "packs is not iterable")', () => {
    const ops = defineToolPack('ops', [good]);
    expect(refusal(() => createToolRegistry(5 as never))).toEqual(['TOOL_SPEC_INVALID', 'createToolRegistry() takes a list of tool packs (or pack factories), got number 5']);
    expect(refusal(() => createToolRegistry(undefined as never))?.[1]).toBe('createToolRegistry() takes a list of tool packs (or pack factories), got undefined');
    expect(refusal(() => createToolRegistry(ops as never))).toEqual(['TOOL_SPEC_INVALID', 'createToolRegistry() takes a list of tool packs (or pack factories), got an object; put the one pack in a list: createToolRegistry([pack])']);
    expect(refusal(() => createToolRegistry((() => ops) as never))?.[1]).toContain('got a function; put the one pack in a list');
  });
});

describe('a pure pack', () => {
  const convert = defineTool({ name: 'tool.units.Convert', description: 'Converts.', args: [{ name: 'x', type: 'number' }], returns: 'number' }, (args) => args.x as number);
  const save = defineTool({ name: 'tool.units.Save', description: 'Saves.', args: [{ name: 'x', type: 'number' }], returns: 'bool', effect: 'write' }, () => true);
  const send = defineTool({ name: 'tool.units.Send', description: 'Sends.', args: [], returns: 'bool', effect: 'external' }, () => true);

  it('holding a write or external tool is refused when defined and when registered by hand, naming the pack, the tool and the fix', () => {
    // A pure pack's calls are never journaled: a pack that writes has state its reads depend on, and a continuing
    // run would read afresh what its own earlier write changed. It was accepted silently.
    const says = (tool: string, effect: string) =>
      `tool pack 'units' is declared pure, but its tool ${tool} has effect '${effect}': a pure pack's results come from their arguments alone, so the host journals none of its calls; drop pure: true from the pack, or move ${tool} to a pack that is not pure`;
    expect(refusal(() => defineToolPack('units', [convert, save], { pure: true }))).toEqual(['TOOL_SPEC_INVALID', says('tool.units.Save', 'write')]);
    expect(refusal(() => defineToolPack('units', [send, convert], { pure: true }))).toEqual(['TOOL_SPEC_INVALID', says('tool.units.Send', 'external')]);
    expect(refusal(() => createToolRegistry([{ name: 'units', tools: [convert, save], pure: true }]))).toEqual(['TOOL_SPEC_INVALID', says('tool.units.Save', 'write')]);
  });

  it('of read tools only is taken, and a pack that writes is taken when not pure', () => {
    expect(createToolRegistry([defineToolPack('units', [convert], { pure: true })]).lookup('tool.units.Convert')?.pure).toBe(true);
    expect(createToolRegistry([defineToolPack('units', [convert, save, send])]).lookup('tool.units.Save')?.pure).toBeUndefined();
    expect(refusal(() => createToolRegistry([{ name: 'units', tools: [convert, save], pure: false }]))).toBeUndefined();
  });

  it("is not made by options defineToolPack does not know: a misspelt key or a pure that is not true or false is refused, naming it and the key meant", () => {
    // `{ pur: true }` made the pack silently not pure, and `{ pure: 'yes' }` too (only `true` counts).
    expect(refusal(() => defineToolPack('units', [convert], { pur: true } as never))).toEqual(['TOOL_SPEC_INVALID', "defineToolPack('units', …): unknown option 'pur'; did you mean 'pure'? (the options are pure)"]);
    expect(refusal(() => defineToolPack('units', [convert], { Pure: true } as never))?.[1]).toContain("unknown option 'Pure'; did you mean 'pure'?");
    expect(refusal(() => defineToolPack('units', [convert], { readOnly: true } as never))).toEqual(['TOOL_SPEC_INVALID', "defineToolPack('units', …): unknown option 'readOnly' (the options are pure)"]);
    expect(refusal(() => defineToolPack('units', [convert], { pure: 'yes' } as never))).toEqual(['TOOL_SPEC_INVALID', `defineToolPack('units', …): pure must be true or false, got "yes"`]);
    expect(refusal(() => defineToolPack('units', [convert], { pure: 1 } as never))).toEqual(['TOOL_SPEC_INVALID', "defineToolPack('units', …): pure must be true or false, got 1"]);
    expect(refusal(() => defineToolPack('units', [convert], null as never))).toEqual(['TOOL_SPEC_INVALID', "defineToolPack('units', …): its options are an object (pure), got null"]);
    expect(refusal(() => defineToolPack('units', [convert], true as never))?.[0]).toBe('TOOL_SPEC_INVALID');
    // What was valid still is: no options, undefined, an empty object, pure true or false or left undefined.
    for (const options of [undefined, {}, { pure: false }, { pure: undefined }]) expect(defineToolPack('units', [convert, save], options).pure).toBeUndefined();
    expect(defineToolPack('units', [convert], { pure: true }).pure).toBe(true);
  });
});
