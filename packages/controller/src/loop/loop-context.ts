/**
 * Everything one driver call (run, step, resume, approve, deny, replay) needs
 * to run turns of one session: resolved objects only, no registries of
 * plugins (those stay inside `createAskLoop`).
 */
import type { JsonValue } from '@askloop/interpreter';
import type { LanguageModel } from '@askloop/providers';
import type { CallCounter, Clock, HostToolCatalog, Policy, ToolRegistry, ToolStores } from '@askloop/tools';
import type { ResolvedAgentDefinition } from '../agent/agent-definition.ts';
import type { EmitEvent } from '../events/event-bus.ts';
import type { AskCall, LoopInterpreter, LoopToolBridge } from '../interpreter/loop-interpreter.ts';
import type { NamedHooks } from '../plugin/resolve-plugins.ts';
import type { RunAdmission } from '../session/run-admission.ts';
import type { SessionRecord, TranscriptStore } from '../store/transcript-store.ts';
import type { RunBounds } from './execute-turn.ts';
import type { ToolOutputRedaction } from './tool-output-redaction.ts';
import type { AskUsage, ModelSpend, TurnRecord, TurnTimings } from './turn-record.ts';

/** The state and services of one session's driver call. */
export interface LoopContext {
  readonly store: TranscriptStore;
  readonly interpreter: LoopInterpreter;
  readonly hooks: readonly NamedHooks[];
  readonly clock: Clock;
  readonly emit: EmitEvent;
  readonly session: SessionRecord;
  readonly agent: ResolvedAgentDefinition;
  readonly loopId: string;
  readonly model: LanguageModel;
  /** The tools for the next turn (static packs plus sources listed now). */
  readonly toolRegistry: () => Promise<ToolRegistry>;
  /** The agent's policy: the one decision for the check, the catalogue and the run. */
  readonly policy: Policy;
  readonly toolStores: ToolStores;
  readonly sessionCounter: CallCounter;
  /** Replay: answers tool calls from the recording instead of running them. */
  readonly replayTools?: (turn: TurnRecord, catalog: HostToolCatalog, bounds: RunBounds) => LoopToolBridge;
  /**
   * Replay: the times the recording has for a turn, which its decided record keeps instead of the replay's own. The
   * loop's wall-clock total (and the ceiling's decisions and the run limits that follow from it) then match the
   * recording, whose model and tools took real time where the replay's answer at once.
   */
  readonly recordedTimings?: (turn: TurnRecord) => TurnTimings | undefined;
  /**
   * A replay's: the tokens and cost the recording's turn spent on its model calls, which the replay's model, answering
   * only the turn's last call, cannot reproduce (a failed call's estimate, a rerun's earlier call).
   */
  readonly recordedSpend?: (turn: TurnRecord) => ModelSpend | undefined;
  /** Runs a child loop for an `ask` statement; undefined when the depth limit is reached. */
  readonly ask?: (call: AskCall, origin: AskOrigin) => Promise<JsonValue>;
  readonly signal?: AbortSignal;
  /** Bounds how many turns prepare and run at once; absent for child loops of `ask` (their parent holds a slot). */
  readonly admission?: RunAdmission;
  /** How long the idempotence records of the session's earlier turns are kept (ms; `Infinity`: all of them; absent: none are removed). */
  readonly idempotenceRetentionMs?: number;
  /** How long a model call may go on after END before it is aborted (`askModel`'s default when absent). */
  readonly endGraceMs?: number;
  /** What a turn's tool host replaces in tool results and errors: the model's keys and the loop's `secrets` (absent: nothing). */
  readonly toolOutputRedaction?: ToolOutputRedaction;
  /**
   * Set for the loop of an `ask`: no person answers it (its asker cannot wait), so a program calling a tool that
   * needs approval is refused by the check instead of pausing a loop whose approval would run for no one.
   */
  readonly noApprover?: boolean;
}

/** The turn whose run asks, and where it hears of the child session the `ask` starts. */
export interface AskOrigin {
  readonly turnIndex: number;
  /** The ask's place among the run's asks (from 0). */
  readonly index: number;
  /** Called with the child session's id once the session exists, before its loop runs. */
  readonly started: (sid: string) => void;
  /** The run's per-turn call counter, which its tool calls count in too: an ask counts as one call. */
  readonly turnCounter: CallCounter;
  /** Called with what the child loop spent on its models once it ended, whatever its end (the turn records it). */
  readonly ended?: (usage: AskUsage) => void;
  /**
   * What is left of the asking loop's token and cost ceilings after what it has spent, this turn's earlier asks
   * included: with nothing left the ask starts no child, and the child's token and cost ceilings are lowered to what is
   * left (its cost ceiling only when its model's cost is counted: `askedAgent`).
   * A ceiling the loop does not have is absent from it.
   */
  readonly budgetLeft?: AskBudget;
}

/** What is left of an asking loop's ceilings (each absent when the loop has no such ceiling). */
export interface AskBudget {
  readonly tokens?: number;
  readonly costUsd?: number;
}

let lastMs = Number.NaN;
let lastIso = '';
/**
 * ISO time of the context's clock. A turn stamps many events within one
 * millisecond, and thousands of sessions share the clock's value: the text of
 * the last millisecond read is kept instead of formatting a `Date` each time.
 * Kept per whole millisecond, the only digits the text has (a `Date` drops the
 * fraction the same way): a clock with sub-millisecond readings formatted a
 * `Date` for every event, about 0.8 µs each, 0.4 ms a turn for the `model-text`
 * events of a reply streamed word by word.
 */
export const isoNow = (context: Pick<LoopContext, 'clock'>): string => {
  const ms = Math.trunc(context.clock.now());
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
};
