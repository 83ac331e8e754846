/**
 * Delivers each event to the loop's listener, the call's listener and every
 * plugin's `event` hook. Observe only: a listener that throws is reported as a
 * `hook-error` event (plugins) or swallowed (callers), never stopping the loop.
 */
import type { NamedHooks } from '../plugin/resolve-plugins.ts';
import type { LoopEvent, LoopEventListener } from './loop-event.ts';

/** A function that publishes an event. */
export type EmitEvent = (event: LoopEvent) => void;

/** Creates the publisher for one driver call. */
export function createEventBus(listeners: readonly (LoopEventListener | undefined)[], hooks: readonly NamedHooks[]): EmitEvent {
  const emit: EmitEvent = (event) => {
    for (const listener of listeners) {
      try {
        listener?.(event);
      } catch {
        // A caller's listener must not break the loop it observes.
      }
    }
    for (const { plugin, hooks: table } of hooks) {
      if (table.event === undefined) continue;
      try {
        table.event(event);
      } catch (error) {
        if (event.type === 'hook-error') continue;
        emit({ type: 'hook-error', sid: event.sid, loopId: event.loopId, ts: event.ts, plugin, hook: 'event', message: error instanceof Error ? error.message : String(error) });
      }
    }
  };
  return emit;
}
