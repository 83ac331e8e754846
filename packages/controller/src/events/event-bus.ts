/**
 * Delivers each event to the loop's listener, the call's listener and every
 * plugin's `event` hook. Observe only: a listener that throws — or, being
 * async, rejects — is reported as a `hook-error` event (plugins) or swallowed
 * (callers), never stopping the loop; a rejection left unhandled would end the
 * host process.
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
        // A caller's listener must not break the loop it observes.
        whenRejected(listener?.(event), () => {});
      } catch {
        // As above.
      }
    }
    for (const { plugin, hooks: table } of hooks) {
      if (table.event === undefined) continue;
      const report = (error: unknown): void => {
        if (event.type === 'hook-error') return;
        emit({ type: 'hook-error', sid: event.sid, loopId: event.loopId, ts: event.ts, plugin, hook: 'event', message: error instanceof Error ? error.message : String(error) });
      };
      try {
        whenRejected(table.event(event), report);
      } catch (error) {
        report(error);
      }
    }
  };
  return emit;
}

/** Handles the rejection of what an observer returned, when it returned a promise (an async listener or hook). */
function whenRejected(returned: unknown, onRejected: (error: unknown) => void): void {
  if (typeof returned !== 'object' || returned === null || typeof (returned as { then?: unknown }).then !== 'function') return;
  try {
    (returned as PromiseLike<unknown>).then(undefined, onRejected);
  } catch {
    // A thenable whose then throws: nothing was left pending.
  }
}
