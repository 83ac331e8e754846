/**
 * A run's tools, made when a sandbox worker takes the run (`onStart`) — or at
 * the first tool call, for a runner that does not report the start — and not
 * before: a tool host bound to the run counts its deadline from when it is
 * made, so it then starts with the run's own wall clock instead of before a
 * wait in the pool's queue.
 */
import type { ToolBridge } from './run-types.ts';

/** The bridge to pass as `tools` (its `call` and `recordLocalCall`) and the hook to pass as `onStart`. */
export interface ToolsAtRunStart {
  readonly call: ToolBridge['call'];
  /**
   * Books a call the worker answered on the made bridge. Pass it (as
   * `tools.recordLocalCall`, with `localTools`) only when `make` gives a
   * bridge that has `recordLocalCall` (a `ToolHost` does): on one without, it
   * throws, and the run fails.
   */
  readonly recordLocalCall: NonNullable<ToolBridge['recordLocalCall']>;
  readonly onStart: () => void;
}

/** Calls `make` once, at the run's start or its first tool call, whichever comes first. */
export function toolsAtRunStart(make: () => Pick<ToolBridge, 'call' | 'recordLocalCall'>): ToolsAtRunStart {
  let made: Pick<ToolBridge, 'call' | 'recordLocalCall'> | undefined;
  const tools = (): Pick<ToolBridge, 'call' | 'recordLocalCall'> => (made ??= make());
  return {
    call: (name, args, options) => tools().call(name, args, options),
    recordLocalCall: (name) => {
      const bridge = tools();
      if (typeof bridge.recordLocalCall !== 'function') throw new Error(`the run's tools cannot book a call the sandbox worker answered (${name}): pass localTools only with a bridge that has recordLocalCall`);
      bridge.recordLocalCall(name);
    },
    onStart: () => {
      tools();
    },
  };
}
