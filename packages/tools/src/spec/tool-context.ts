/**
 * What a handler may use besides its arguments. Everything with an effect
 * reaches the world through here, so tests can inject clocks and stores.
 */
import type { Clock } from '../clock.ts';
import type { ToolStores } from '../stores/store-types.ts';
import type { Capability } from '../policy/capability.ts';
import type { Policy } from '../policy/policy.ts';
import type { ToolRegistry } from '../registry/tool-registry.ts';
import type { ToolSpec } from './tool-spec.ts';
import type { ToolValue } from './tool-value.ts';

/** The per-call context handed to a tool handler. */
export interface ToolContext {
  readonly spec: ToolSpec;
  readonly session: string;
  readonly turn: number;
  /** Position of this call within the turn, from 0. */
  readonly callIndex: number;
  readonly clock: Clock;
  /** Aborted when the call times out; long-running handlers should pass it on. */
  readonly signal: AbortSignal;
  readonly stores: Partial<ToolStores>;
  readonly policy: Policy;
  readonly registry: ToolRegistry;
  /** Extra positional arguments of a variadic tool. */
  readonly rest: readonly ToolValue[];
  /** Throws the policy's denial when the capability (with scope) is not granted; for per-call needs found while running (e.g. a redirect's host). */
  authorize(capability: string | Capability): void;
}
