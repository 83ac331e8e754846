/**
 * The tool call a run has out, so that a run that ends while a call is still
 * out (cancelled, out of time) records it as unfinished instead of leaving it
 * out of the turn: a write tool may have acted, and a person auditing the
 * session needs to see it in its place. A run makes one host call at a time
 * (the isolate waits on each: `HostBridge.request` in `@askloop/interpreter`),
 * so there is at most one.
 */
import type { JsonValue } from '@askloop/interpreter';
import type { LoopToolBridge } from '../interpreter/loop-interpreter.ts';
import type { UnfinishedToolCall } from './turn-record.ts';

/** A call the bridge was given that has not been reported back yet. */
export interface CallOut {
  readonly name: string;
  readonly args: readonly JsonValue[];
  /** `performance.now()` when the bridge got it. */
  readonly startedAt: number;
  /** The call's own signal (aborts when the run ends while it is out), when the run passed one. */
  readonly signal: AbortSignal | undefined;
  /** Set when the bridge failed it with `TOOL_TIMEOUT`: the tool host gave up on it (at the run's deadline, say). */
  timedOut: boolean;
}

/** When a call's report came: while the run went on, after its time was up, or after it had ended. */
export type ReportTiming = 'in-run' | 'after-time' | 'after-end';

/** Tracks the call out on a run's tool bridge. */
export interface CallsInFlight {
  /** `call` that notes each call as out before it reaches the bridge. */
  readonly call: LoopToolBridge['call'];
  /**
   * A report of the run (`onToolCall`) came: the call out ends. `after-end`: the run had ended for it (its signal, or
   * `runSignal`, aborted first): its outcome is a cancellation the program never saw; do not record the report, the
   * call is {@link unfinished}. `after-time`: the tool host gave up on it (`TOOL_TIMEOUT`) once the run's wall clock
   * had run out: record it, and if the run then ends out of time, mark it unfinished. `in-run`: record it as it is
   * (also a call that returned after the run's time was up: its result was real, and the program may have used it).
   */
  reported(): ReportTiming;
  /** The call still out when the run ended (never reported, or reported only after the run ended), if any. */
  unfinished(): CallOut | undefined;
}

/**
 * Wraps `call`; `runSignal` aborts when the run ends (the caller's abort included); `timeUp` says whether the run's
 * wall clock has run out.
 */
export function trackCallsInFlight(call: LoopToolBridge['call'], runSignal: AbortSignal, timeUp: () => boolean): CallsInFlight {
  let out: CallOut | undefined;
  let endedOut: CallOut | undefined;
  return {
    call: (name, args, options) => {
      const noted: CallOut = { name, args: [...args], startedAt: performance.now(), signal: options?.signal, timedOut: false };
      out = noted;
      const pending = call(name, args, options);
      // Watched, not changed: this reaction is registered before the run's own, so the flag is set when it reports.
      // Only a call the tool host gave up on is 'after-time'; one that returned late keeps its result.
      Promise.resolve(pending).then(undefined, (error: unknown) => {
        if (isToolTimeout(error)) noted.timedOut = true;
      });
      return pending;
    },
    reported: () => {
      const ended = out;
      out = undefined;
      // Reported once the run had ended for it: the tool was stopped (or gave up) after the program stopped waiting.
      if (ended !== undefined && (ended.signal?.aborted === true || runSignal.aborted)) {
        endedOut = ended;
        return 'after-end';
      }
      return ended !== undefined && ended.timedOut && timeUp() ? 'after-time' : 'in-run';
    },
    unfinished: () => out ?? endedOut,
  };
}

/**
 * Whether a bridge's failure is the tool host giving up on a call at its deadline: `TOOL_TIMEOUT`, or a replayed call
 * that fails at that deadline as its recording did (`timedOut`, whatever code the recording shows).
 */
export function isToolTimeout(error: unknown): boolean {
  const fields = error as { code?: unknown; timedOut?: unknown } | null | undefined;
  return fields?.code === 'TOOL_TIMEOUT' || fields?.timedOut === true;
}

/** The record's note on a call still out when the run ended, by the tool's declared effect (undefined: not known). */
export function unfinishedNote(effect: UnfinishedToolCall['effect'], cutAtDeadline = false): UnfinishedToolCall {
  const ended = cutAtDeadline ? 'the tool host gave up on this call at the run\'s deadline and the run ended out of time, before the program saw it' : 'the run ended before this call returned';
  const note =
    effect === 'read'
      ? `${ended}; the tool is declared read-only, so it should have changed nothing`
      : `${ended}; ${effect === undefined ? 'the tool\'s effect is not known: it' : `${effect === 'external' ? 'an' : 'a'} ${effect} tool: it`} may have acted (check its target)`;
  return { ...(effect === undefined ? {} : { effect }), note };
}
