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
  /** Aborted when the call times out or the run ends (host `signal`, call `signal`); long-running handlers must pass it on and stop. */
  readonly signal: AbortSignal;
  /**
   * The most characters a result may hold (all its strings, map keys
   * included): the run's value-size limit. Tools that can amplify their input
   * check the exact size with `ensureResultLength` before building the result.
   */
  readonly maxResultLength: number;
  /**
   * The most items one list or map of a result may hold: the run's
   * `collectionSize`. Tools that can split their input into many items
   * (`str.Split`) count them with `ensureResultItems` before building.
   */
  readonly maxResultItems: number;
  /**
   * The host's stores. `memory` and `scratch` are this pack's own view
   * (`scopeStoresToPack`): each key is stored under `pack:<pack name>/`, so a
   * pack sees only its own keys, and no program reaches them through
   * `tool.memory.*` or `tool.scratch.*` (which refuse that prefix). Only the
   * built-in memory and scratch tools see them unscoped. `idempotence` is shared.
   */
  readonly stores: Partial<ToolStores>;
  readonly policy: Policy;
  readonly registry: ToolRegistry;
  /** Extra positional arguments of a variadic tool. */
  readonly rest: readonly ToolValue[];
  /** Throws the policy's denial when the capability (with scope) is not granted; for per-call needs found while running (e.g. a redirect's host). */
  authorize(capability: string | Capability): void;
}
