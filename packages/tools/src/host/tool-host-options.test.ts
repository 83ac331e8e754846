/**
 * `createToolHost` refuses options it cannot work with when the host is made: a misspelt option or a missing
 * registry or policy was taken, and every call then failed TOOL_FAILED with "Cannot read properties of undefined".
 */
import { describe, expect, it } from 'vitest';
import { createPolicy } from '../policy/policy.ts';
import { createDefaultRegistry } from '../packs/default-registry.ts';
import { createToolHost } from './tool-host.ts';

const registry = createDefaultRegistry();
const policy = createPolicy({ allow: ['tool.str.*'] });
const refusal = (options: unknown) => {
  try {
    createToolHost(options as never);
  } catch (error) {
    return { code: (error as { code?: unknown }).code, message: (error as Error).message };
  }
  return undefined;
};

describe('createToolHost options', () => {
  it('refuses a misspelt option, naming the one meant', () => {
    expect(refusal({ registy: registry, policy, session: 's', turn: 1 })).toEqual({ code: 'TOOL_SPEC_INVALID', message: expect.stringContaining("createToolHost(): unknown option 'registy'; did you mean 'registry'?") });
    expect(refusal({ registry, policy, session: 's', turn: 1, journalRead: true })).toMatchObject({ message: expect.stringContaining("did you mean 'journalReads'?") });
  });

  it('refuses a missing registry or policy, saying what to pass', () => {
    expect(refusal({ policy, session: 's', turn: 1 })).toEqual({ code: 'TOOL_SPEC_INVALID', message: 'createToolHost(): registry must be a tool registry (createDefaultRegistry() or createToolRegistry(packs)), got undefined' });
    expect(refusal({ registry, session: 's', turn: 1 })).toEqual({ code: 'TOOL_SPEC_INVALID', message: 'createToolHost(): policy must be a policy (createPolicy({ allow: [...] })), got undefined' });
    expect(refusal({ registry, policy: { allow: ['tool.str.*'] }, session: 's', turn: 1 })).toMatchObject({ message: expect.stringContaining('got an object without its methods') });
  });

  it('refuses no options and a flag that is not one', () => {
    expect(refusal(undefined)).toMatchObject({ code: 'TOOL_SPEC_INVALID', message: expect.stringContaining('createToolHost(): its options are an object') });
    expect(refusal({ registry, policy, session: 's', turn: 1, journalReads: 'yes' })).toMatchObject({ message: 'createToolHost(): journalReads must be true or false, got "yes"' });
  });

  it('makes a host from the options it knows', async () => {
    const host = createToolHost({ registry, policy, session: 's', turn: 1, journalReads: true, maxResultLength: Infinity, maxResultItems: 0, defaultTimeoutMs: 500 });
    await expect(host.call('tool.str.ToUpper', ['hi'])).resolves.toBe('HI');
  });
});
