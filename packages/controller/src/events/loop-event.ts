/**
 * Typed events for every step of a loop, for live progress, hooks, logs and
 * OpenTelemetry spans. Observe-only: a listener cannot change the loop. No
 * event ever carries a key.
 */
import type { Diagnostic } from '@askloop/interpreter';
import type { LoopDecision } from '../decide/loop-decision.ts';
import type { DecisionLogEntry, RecordedToolCall, TurnKind, TurnPhase, TurnRecord } from '../loop/turn-record.ts';
import type { LoopResult } from '../ask-loop.ts';

interface EventBase {
  readonly sid: string;
  readonly loopId: string;
  /** ISO 8601. */
  readonly ts: string;
}

/** Every event, discriminated by `type`. */
export type LoopEvent =
  | (EventBase & { readonly type: 'loop-start'; readonly agent: string; /** The agent's `provider:model` id. */ readonly model: string; readonly resumed: boolean; /** Set when this session runs an `ask` of that session (seed 004). */ readonly parentSid?: string })
  | (EventBase & { readonly type: 'turn-start'; readonly turnIndex: number; readonly kind: TurnKind })
  | (EventBase & { readonly type: 'phase'; readonly turnIndex: number; readonly phase: TurnPhase })
  | (EventBase & { readonly type: 'model-text'; readonly turnIndex: number; readonly delta: string })
  | (EventBase & {
      readonly type: 'reply';
      readonly turnIndex: number;
      readonly text: string;
      /** The provider and the model that answered, and why it stopped (`stopped-at-end` when the loop cut it at END). */
      readonly provider: string;
      readonly model: string;
      readonly finishReason: string;
      readonly inputTokens: number;
      readonly outputTokens: number;
      /** What the provider priced the call at (0 when it does not say). */
      readonly costUsd: number;
      readonly latencyMs: number;
    })
  /**
   * A model call that failed (the turn's `failure` says why), with what it is estimated to have cost: nothing unless
   * it streamed part of a reply first, which the provider bills but reports no usage for. Each model call ends in
   * one `reply` or one `call-failed`; the loop's ceilings and `metrics()` count both.
   */
  | (EventBase & { readonly type: 'call-failed'; readonly turnIndex: number; readonly code: string; readonly inputTokens: number; readonly outputTokens: number; readonly costUsd: number })
  | (EventBase & { readonly type: 'prepared'; readonly turnIndex: number; readonly actions: string; readonly diagnostics: readonly Diagnostic[]; readonly ok: boolean })
  | (EventBase & { readonly type: 'approval-required'; readonly turnIndex: number; readonly message: string })
  | (EventBase & { readonly type: 'tool-call'; readonly turnIndex: number; readonly call: RecordedToolCall })
  | (EventBase & { readonly type: 'emit'; readonly turnIndex: number; readonly text: string })
  | (EventBase & { readonly type: 'whisper'; readonly turnIndex: number; readonly target: string; readonly text: string })
  /**
   * Every decision, as the decision log records it. A turn may have two: the
   * approval gate's PAUSE (the record still in phase `awaiting-approval`) and
   * the decision once it is answered; or a v1 `await` PAUSE and the HALT a
   * denial makes of it (`redecided`). And a turn `resume` reopens after a HALT
   * (cancelled, or its model call failed) is decided again, with
   * `record.reruns` set. Count turns where `record.phase` is `decided`,
   * `redecided` is not set and `record.reruns` is not either; count tokens
   * from `reply` and `call-failed` events (one a model call), not from decisions.
   */
  | (EventBase & { readonly type: 'decision'; readonly turnIndex: number; readonly decision: LoopDecision; readonly log: DecisionLogEntry; readonly record: TurnRecord; readonly redecided?: true })
  /**
   * The next step waits for the session: behind another call of this controller, or behind another host's lease
   * (a host that died holds it until it runs out, `sessionLeaseMs`). Once per wait.
   */
  | (EventBase & { readonly type: 'waiting'; readonly behind: 'another call' | 'another host' })
  | (EventBase & {
      readonly type: 'loop-end';
      readonly result: LoopResult;
      /**
       * Set when the session halted before its first turn (a task that is no valid USERDATA, or too large for an
       * envelope): the HALT of `result` is a decision no turn carried, so no `decision` event came before.
       */
      readonly beforeFirstTurn?: true;
    })
  /** The driver call threw (a host mistake, a store failure, a lost lease; never a HALT) instead of ending: no `loop-end` follows. Only the error's code. */
  | (EventBase & { readonly type: 'loop-error'; readonly code: string })
  | (EventBase & { readonly type: 'hook-error'; readonly plugin: string; readonly hook: string; readonly message: string });

/** The event types. */
export type LoopEventType = LoopEvent['type'];

/** A listener. */
export type LoopEventListener = (event: LoopEvent) => void;
