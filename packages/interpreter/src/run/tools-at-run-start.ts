/**
 * A run's tools, made when a sandbox worker takes the run (`onStart`) — or at
 * the first tool call, for a runner that does not report the start — and not
 * before: a tool host bound to the run counts its deadline from when it is
 * made, so it then starts with the run's own wall clock instead of before a
 * wait in the pool's queue.
 */
import type { ToolBridge } from './run-types.ts';

/** The bridge to pass as `tools` and the hook to pass as `onStart`. */
export interface ToolsAtRunStart {
  readonly call: ToolBridge['call'];
  readonly onStart: () => void;
}

/** Calls `make` once, at the run's start or its first tool call, whichever comes first. */
export function toolsAtRunStart(make: () => Pick<ToolBridge, 'call'>): ToolsAtRunStart {
  let made: Pick<ToolBridge, 'call'> | undefined;
  const tools = (): Pick<ToolBridge, 'call'> => (made ??= make());
  return {
    call: (name, args, options) => tools().call(name, args, options),
    onStart: () => {
      tools();
    },
  };
}
