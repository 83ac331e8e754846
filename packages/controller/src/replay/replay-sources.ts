/**
 * What a replay runs on instead of the world: a model that answers with the
 * recorded replies (or fails as the recorded call failed), and a tool bridge
 * that answers each call with the recorded result of the same turn and index.
 */
import { canonicalJson, LOOP_DONE_MARKER } from '@askloop/envelope';
import type { JsonValue } from '@askloop/interpreter';
import { ProviderError, type GenerateOptions, type GenerateResult, type LanguageModel, type ProviderErrorCode } from '@askloop/providers';
import { callDeadline, type Clock, type HostToolCatalog } from '@askloop/tools';
import type { LoopToolBridge } from '../interpreter/loop-interpreter.ts';
import { WALL_CLOCK_SPENT } from '../loop/ask-model.ts';
import type { RunBounds } from '../loop/execute-turn.ts';
import { callsPredateUnfinished } from '../loop/tool-calls-version.ts';
import type { TurnRecord } from '../loop/turn-record.ts';

/**
 * A model replaying the recorded model calls of `turns`, in order. A call the recording shows cancelled before its
 * reply (the turn halted ERR_CANCELLED while the model answered) is cancelled again: `cancel` aborts the replayed
 * run's signal, as the caller's did, and the call fails as it failed then.
 */
export function createRecordedModel(turns: readonly TurnRecord[], cancel: () => void = () => {}): LanguageModel {
  // The calls made: replied, failed, cut by the loop's wall clock before END, or cancelled.
  const calls = turns.filter((turn) => turn.reply !== undefined || turn.failure?.kind === 'provider' || turn.failure?.kind === 'cancelled' || turn.failure?.code === WALL_CLOCK_SPENT);
  let next = 0;
  const first = calls.find((turn) => turn.reply !== undefined)?.reply;
  return {
    provider: first?.provider ?? 'replay',
    modelId: first?.model ?? 'replay',
    async generate(options: GenerateOptions): Promise<GenerateResult> {
      const turn = calls[next];
      next += 1;
      if (turn === undefined) throw new ProviderError({ code: 'PROVIDER_SCRIPT_EXHAUSTED', message: 'the recording has no more model replies' });
      const reply = turn.reply;
      if (reply === undefined && turn.failure?.code === WALL_CLOCK_SPENT) {
        throw Object.assign(new Error(turn.failure.message), { code: WALL_CLOCK_SPENT });
      }
      if (reply === undefined && turn.failure?.kind === 'cancelled') cancel();
      if (reply === undefined) {
        const error = new ProviderError({ code: (turn.failure?.code ?? 'PROVIDER_BAD_RESPONSE') as ProviderErrorCode, message: 'recorded failure' });
        // The recorded message as it was, so the replayed decision matches it word for word.
        Object.defineProperty(error, 'message', { value: turn.failure?.message ?? error.message });
        throw error;
      }
      // One chunk: the loop's END detection then behaves as it did live. A DONE marker the model wrote after END was
      // not kept, only seen: it follows END again, so the replayed turn tells the next one as the recorded did.
      options.onText?.(reply.doneMarkerAfterEnd === true ? `${reply.text}\n${LOOP_DONE_MARKER}` : reply.text);
      return {
        text: reply.text,
        usage: { inputTokens: reply.inputTokens, outputTokens: reply.outputTokens },
        finishReason: 'stop',
        latencyMs: reply.latencyMs,
        attempts: reply.attempts,
        raw: null,
        // A number only: JSON kept an Infinity cost (recorded before costs were checked) as null, no cost to replay.
        ...(typeof reply.costUsd === 'number' ? { costUsd: reply.costUsd } : {}),
        provider: reply.provider,
        model: reply.model,
        warnings: [],
      };
    },
  };
}

/** A tool bridge for `turn` answering from `original`, the recording of the same turn (undefined: none was recorded). */
export function createRecordedTools(original: TurnRecord | undefined, turn: TurnRecord, catalog: HostToolCatalog, bounds: RunBounds, clock: Clock): LoopToolBridge {
  const calls = original?.toolCalls ?? [];
  let next = 0;
  return {
    catalog,
    call(name: string, args: readonly JsonValue[] = [], options?: { readonly timeLeftMs?: number }): JsonValue | Promise<never> {
      const call = calls[next];
      next += 1;
      // A recording from before unfinished calls were kept that timed out inside its last call left that call out, or
      // recorded it failed (cut at the run's deadline): fail it at the same deadline, so the run ends the way it did —
      // the deadline a live tool host would give the call. A recording made since marks that call `unfinished` (below);
      // one more call than it holds, or a failed call it shows the program saw, is answered as any other.
      const timedOutBefore = original !== undefined && original.failure?.kind === 'timeout' && callsPredateUnfinished(original);
      if (timedOutBefore && (call === undefined ? next === calls.length + 1 : next === calls.length && call.error !== undefined)) {
        return neverReturns(call?.error, bounds, options?.timeLeftMs, clock);
      }
      if (call === undefined || call.name !== name) {
        throw Object.assign(new Error(`replay: call ${next - 1} of turn ${turn.turnIndex} was ${call?.name ?? 'not made'} when recorded, now ${name}`), { code: 'LOOP_REPLAY_DIVERGED' });
      }
      // The same tool with other arguments is a different call: answering it with the recorded result would hide the divergence.
      if (canonicalJson(call.args) !== canonicalJson(args)) {
        throw Object.assign(new Error(`replay: call ${next - 1} of turn ${turn.turnIndex} (${name}) had arguments ${canonicalJson(call.args)} when recorded, now ${canonicalJson(args)}`), {
          code: 'LOOP_REPLAY_DIVERGED',
        });
      }
      // Still out when the recorded run ended (cancelled, or out of time): its outcome was never known, so it does not
      // return here either. The replayed run ends as the recorded one did — at the same deadline, or cancelled in
      // this call (replay-session.ts) — and records it unfinished again.
      // (One the tool host gave up on at the deadline fails there again with what it said then.)
      if (call.unfinished !== undefined) return neverReturns(call.error, bounds, options?.timeLeftMs, clock);
      if (call.error !== undefined) throw Object.assign(new Error(call.error.message), { code: call.error.code, ...(call.error.grant === undefined ? {} : { grant: call.error.grant }) });
      return call.result ?? null;
    },
  };
}

/**
 * A call that does not return: it fails at the deadline a live tool host would give it (with `recorded`, the error
 * the recording shows, else `TOOL_TIMEOUT`), or when the run ends first.
 */
function neverReturns(recorded: { readonly code: string; readonly message: string } | undefined, bounds: RunBounds, timeLeftMs: number | undefined, clock: Clock): Promise<never> {
  const error = Object.assign(new Error(recorded?.message ?? 'the recorded call never returned'), { code: recorded?.code ?? 'TOOL_TIMEOUT' });
  return new Promise<never>((_resolve, reject) => {
    const deadline = callDeadline(bounds.deadline, timeLeftMs, bounds.deadlineGraceMs, clock.now());
    // At the deadline it is given up on, as the live tool host did (`isToolTimeout`): the record marks it so again.
    const timer = setTimeout(() => reject(Object.assign(error, { timedOut: true })), Math.max(0, deadline - clock.now()));
    bounds.signal.addEventListener('abort', () => { clearTimeout(timer); reject(error); }, { once: true });
  });
}
