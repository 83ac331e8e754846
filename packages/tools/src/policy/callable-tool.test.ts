import { describe, expect, it } from 'vitest';
import { createSafeToolPacks } from '../packs/default-registry.ts';
import { createToolRegistry } from '../registry/tool-registry.ts';
import { callableTool } from './callable-tool.ts';
import { createPolicy } from './policy.ts';

describe('callableTool', () => {
  const registry = createToolRegistry(createSafeToolPacks());

  it('is true for a registered tool the policy allows, in any spelling the registry accepts, as the catalogue lists it', () => {
    const policy = createPolicy({ allow: ['tool.str.*'], deny: ['tool.str.Split'] });
    const callable = callableTool(registry, policy);
    expect([callable('tool.str.ToUpper'), callable('str.toupper'), callable('tool.str.Split'), callable('tool.map.Keys'), callable('tool.str.Nope')]).toEqual([true, true, false, false, false]);
    expect(registry.catalogue(policy)).toContain('tool.str.ToUpper');
    expect(registry.catalogue(policy)).not.toContain('tool.str.Split(');
  });
});
