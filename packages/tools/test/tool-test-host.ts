/**
 * Test helper: a tool host over the given packs with a permissive policy
 * (allow everything, grant everything) unless the test says otherwise.
 */
import { createManualClock, type ManualClock } from '../src/clock.ts';
import { createToolHost, type ToolHost, type ToolHostOptions } from '../src/host/tool-host.ts';
import { createPolicy, type PolicyOptions } from '../src/policy/policy.ts';
import type { ToolPack } from '../src/registry/tool-pack.ts';
import { createToolRegistry } from '../src/registry/tool-registry.ts';
import { isToolError, type ToolError } from '../src/errors/tool-error.ts';
import type { ToolValue } from '../src/spec/tool-value.ts';

/** What {@link hostFor} returns. */
export interface TestHost extends ToolHost {
  readonly clock: ManualClock;
  /** Calls and returns the error the call rejects with (fails the test when it resolves). */
  fail(name: string, args: readonly ToolValue[]): Promise<ToolError>;
}

/** A host over `packs`; the policy defaults to allow `**` with grant `*:*`. */
export function hostFor(packs: readonly ToolPack[], policy: PolicyOptions = { allow: ['**'], grants: ['*:*'] }, extra: Partial<ToolHostOptions> = {}): TestHost {
  const clock = createManualClock();
  const host = createToolHost({ registry: createToolRegistry(packs), policy: createPolicy(policy), session: 's1', turn: 1, clock, ...extra });
  return {
    ...host,
    clock,
    async fail(name, args) {
      try {
        const result = await host.call(name, args);
        throw new Error(`expected ${name} to fail, got ${JSON.stringify(result)}`);
      } catch (error) {
        if (!isToolError(error)) throw error;
        return error;
      }
    },
  };
}
