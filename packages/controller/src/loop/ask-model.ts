/**
 * The model call of a turn: streamed through `EnvelopeStreamParser`, and
 * stopped soon after the END line so few tokens after it are paid for.
 * Nothing after the END line is read: what follows it in the delta that
 * holds it is cut off (the reply and the `onText` deltas end with the END
 * line, however the stream was split), and later deltas are only counted —
 * and watched for the DONE marker, which a model that wrote it there is told
 * never counted (`RecordedReply.doneMarkerAfterEnd`, `marker-after-end.ts`).
 * The call is not aborted at
 * END at once: a model's stream ends a token or two after its last line (its
 * finish, its usage, `[DONE]`), and a call allowed to end by itself keeps its
 * connection for the next call and reports the provider's real usage. It is
 * aborted when it has not ended `endGraceMs` after END (default
 * {@link END_GRACE_MS}) or once {@link END_GRACE_CHARACTERS} more characters
 * have streamed (a model talking on past its envelope). An aborted call is
 * reported by providers as `PROVIDER_ABORTED` without usage: the text received
 * is kept and the usage estimated (`estimateTokens`, 4 characters a token).
 *
 * With a loop wall-clock ceiling, the call gets what is left of it
 * (`wallClock`): a call that has not reached END by then is aborted and the
 * turn fails with {@link WALL_CLOCK_SPENT} (kind `timeout`, so HALT `ERR_TIMEOUT`).
 */
import { EnvelopeStreamParser } from '@askloop/envelope';
import { computeCost, describeThrown, estimateTokens, followSignal, isProviderError, ProviderError, type LanguageModel } from '@askloop/providers';
import type { GenerationSettings } from '@askloop/providers';
import { MarkerAfterEndWatch } from './marker-after-end.ts';
import type { ModelSpend, RecordedReply, TurnFailure } from './turn-record.ts';

/**
 * The outcome of asking: a reply, or the provider failure with what the call cost when it streamed part of a reply
 * first (`spent`: the provider's usage when the call still ended with one, else estimated by `estimateTokens` from
 * what was sent and what streamed; a cut stream reports no usage, but was paid for all the same).
 */
export type AskOutcome = { readonly reply: RecordedReply } | { readonly failure: TurnFailure; readonly spent?: ModelSpend };

/** Options of {@link askModel}. */
export interface AskModelOptions {
  readonly model: LanguageModel;
  readonly system: string;
  readonly prompt: string;
  readonly settings: GenerationSettings;
  readonly signal?: AbortSignal;
  readonly onText?: (delta: string) => void;
  /** How long the call may go on after END before it is aborted (default {@link END_GRACE_MS}; 0: as soon as a timer can fire). */
  readonly endGraceMs?: number;
  /** The loop's wall-clock ceiling and what is left of it for this call (ms); omit without a ceiling. */
  readonly wallClock?: { readonly ceilingMs: number; readonly leftMs: number };
}

/**
 * The failure code of a model call the loop's wall-clock ceiling cut before END
 * (kind `timeout`). A replay's recorded model throws an error with this code to
 * fail the call the same way.
 */
export const WALL_CLOCK_SPENT = 'LOOP_WALL_CLOCK_SPENT';

/**
 * How long a call may go on after END before it is aborted. Measured against a
 * loopback server streaming a token every 3 ms, aborting at once (the next
 * event-loop turn) aborted all 20 of 20 turns: 2 connections a turn and every
 * turn's usage estimated. A model's finish comes a token interval or two after its
 * last line (milliseconds to tens of them at the speeds models stream); a fifth
 * of a second covers those, and bounds what a model that talks on costs. A
 * host whose model is slower (a few tokens a second on a CPU) sets its own
 * (`createAskLoop({ endGraceMs })`).
 */
export const END_GRACE_MS = 200;
/** About 256 tokens: past this much text after END the call is aborted whatever the time. */
export const END_GRACE_CHARACTERS = 1024;

/**
 * How long a model call may take to settle once its signal aborted (the caller's abort, `close()`, the wall-clock
 * ceiling, the grace after END) before the loop stops waiting for it. A provider made with `defineProvider` or
 * `createLanguageModel` ends its call at once; a hand-built `LanguageModel` that ignores its signal would otherwise
 * hold the run, the caller's abort and `close()` for as long as it hangs.
 */
export const ABORT_SETTLE_MS = 1000;

/**
 * `call`, or, when it has not settled `ABORT_SETTLE_MS` after `signal` aborted, a `PROVIDER_ABORTED` failure
 * (what a provider reports for an aborted call). What the abandoned call does later is dropped.
 */
function settledAfterAbort<T>(answer: T | Promise<T>, signal: AbortSignal, model: LanguageModel): Promise<T> {
  // A hand-made model may answer without a promise.
  const call = Promise.resolve(answer);
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const onAbort = (): void => {
      timer = setTimeout(() => {
        call.then(undefined, () => undefined);
        reject(new ProviderError({ code: 'PROVIDER_ABORTED', provider: String(model.provider), model: String(model.modelId), retryable: false, message: `the model's generate() did not settle within ${ABORT_SETTLE_MS} ms of its abort (it ignores its signal); the loop stopped waiting for it` }));
      }, ABORT_SETTLE_MS);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    const settle = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    };
    call.then(
      (value) => {
        settle();
        resolve(value);
      },
      (error: unknown) => {
        settle();
        reject(error as Error);
      },
    );
  });
}

/** What is wrong with what a model's `generate()` resolved, or undefined when it is a reply (text, usage, the names). */
function replyProblem(result: unknown): string | undefined {
  if (result === null || typeof result !== 'object') return `${result === null ? 'null' : typeof result}, not a reply`;
  const reply = result as { text?: unknown; usage?: { inputTokens?: unknown; outputTokens?: unknown } | null; finishReason?: unknown; costUsd?: unknown };
  if (typeof reply.text !== 'string') return `a reply whose text is ${reply.text === null ? 'null' : typeof reply.text}, not a string`;
  if (typeof reply.usage !== 'object' || reply.usage === null || typeof reply.usage.inputTokens !== 'number' || typeof reply.usage.outputTokens !== 'number') {
    return 'a reply without usage { inputTokens, outputTokens } numbers';
  }
  // The loop sums them against its token ceiling: a negative, fractional or astronomical count would break the sum.
  for (const field of ['inputTokens', 'outputTokens'] as const) {
    const count = reply.usage[field] as number;
    if (!Number.isSafeInteger(count) || count < 0) return `a reply whose usage.${field} is ${count}, not a whole number of tokens from 0 to 2^53 − 1`;
  }
  // Summed against the cost ceiling too: NaN never reached it, a negative cost paid other calls back, Infinity was
  // stored as null (JSON), which a later step read as $0.
  const cost = reply.costUsd;
  if (cost !== undefined && !(typeof cost === 'number' && Number.isFinite(cost) && cost >= 0)) {
    return `a reply whose costUsd is ${typeof cost === 'number' ? String(cost) : typeof cost}, not a finite number of dollars ≥ 0 (or left out)`;
  }
  return undefined;
}

/** Calls the model once (the provider retries inside), stopping at END. */
export async function askModel(options: AskModelOptions): Promise<AskOutcome> {
  const parser = new EnvelopeStreamParser();
  const stop = new AbortController();
  // The call stops on the caller's signal or at END; followed, not composed (`followSignal`, `@askloop/providers`).
  const unfollow = followSignal(options.signal, stop);
  const { signal } = stop;
  let text = '';
  let parsing = true;
  let ended = false;
  let afterEnd = 0;
  const markerAfterEnd = new MarkerAfterEndWatch(END_GRACE_CHARACTERS);
  let stopping: NodeJS.Timeout | undefined;
  const stopNow = (): void => {
    clearTimeout(stopping);
    stop.abort(new Error('the envelope is complete'));
  };
  const started = performance.now();
  let outOfTime = false;
  const { wallClock } = options;
  const deadline =
    wallClock === undefined
      ? undefined
      : setTimeout(() => {
          // A reply already whole is the grace's affair (above), not the ceiling's.
          if (ended) return;
          outOfTime = true;
          stop.abort(new Error("the loop's wall clock ran out"));
        }, wallClock.leftMs);
  /** The usage of the call so far, estimated: a provider reports none for a call it did not finish. */
  const estimatedUsage = (): { inputTokens: number; outputTokens: number } => ({ inputTokens: estimateTokens(options.system) + estimateTokens(options.prompt), outputTokens: estimateTokens(text) });
  /** What a failed call cost, estimated: nothing when it streamed no text (refused, or cut before it began answering). */
  const estimatedSpend = (): { spent?: ModelSpend } => {
    if (text === '') return {};
    const usage = estimatedUsage();
    return { spent: { ...usage, costUsd: computeCost(usage, options.model.prices) ?? 0 } };
  };
  const outOfTimeFailure = (spent = estimatedSpend()): AskOutcome => ({
    failure: { code: WALL_CLOCK_SPENT, kind: 'timeout', message: `the loop's wall-clock ceiling of ${wallClock?.ceilingMs} ms ran out while the model answered (${wallClock?.leftMs} ms were left)` },
    ...spent,
  });
  const onText = (delta: string): void => {
    // After END nothing more is read, even from a provider that does not stop at once.
    if (ended) {
      afterEnd += delta.length;
      markerAfterEnd.push(delta);
      if (afterEnd > END_GRACE_CHARACTERS && !signal.aborted) stopNow();
      return;
    }
    let read = delta;
    if (parsing) {
      try {
        if (parser.push(delta) === 'complete') {
          parsing = false;
          ended = true;
          // What follows the END line in the same piece is not read either, whatever the chunking: it is not part of
          // the reply, and it counts towards the bound on what may follow END.
          afterEnd = parser.trailingLength;
          read = delta.slice(0, delta.length - afterEnd);
          markerAfterEnd.push(delta.slice(read.length));
        }
      } catch {
        // Not a strict envelope (prose, a fence): keep streaming; the tolerant extraction decides later.
        parsing = false;
      }
    }
    text += read;
    if (read !== '') options.onText?.(read);
    if (!ended) return;
    if (afterEnd > END_GRACE_CHARACTERS) return stopNow();
    // Not at once: aborting a stream whose end is not here yet costs its connection (undici closes the socket) and
    // its real usage, and the end is usually a token away. A model still generating after the grace is stopped.
    stopping = setTimeout(stopNow, options.endGraceMs ?? END_GRACE_MS);
  };
  try {
    const result = await settledAfterAbort(options.model.generate({ system: options.system, prompt: options.prompt, settings: options.settings, signal, onText }), signal, options.model);
    clearTimeout(stopping);
    // A hand-made LanguageModel may resolve anything: what is not a reply is the provider's failure, not a host crash.
    const malformed = replyProblem(result);
    if (malformed !== undefined) {
      return { failure: { code: 'PROVIDER_BAD_RESPONSE', kind: 'provider', message: `[${String(options.model.provider)}:${String(options.model.modelId)}] PROVIDER_BAD_RESPONSE: the model's generate() resolved ${malformed}` }, ...estimatedSpend() };
    }
    // A provider that did not stop at the abort: its reply came too late all the same.
    if (outOfTime && options.signal?.aborted !== true) {
      const { inputTokens, outputTokens } = result.usage;
      return outOfTimeFailure({ spent: { inputTokens, outputTokens, costUsd: result.costUsd ?? computeCost(result.usage, options.model.prices) ?? 0 } });
    }
    return {
      reply: {
        text: ended ? text : result.text,
        ...(markerAfterEnd.found ? { doneMarkerAfterEnd: true } : {}),
        provider: result.provider,
        model: result.model,
        inputTokens: result.usage.inputTokens,
        outputTokens: result.usage.outputTokens,
        ...(result.usage.cachedInputTokens === undefined ? {} : { cachedInputTokens: result.usage.cachedInputTokens }),
        ...(result.costUsd === undefined ? {} : { costUsd: result.costUsd }),
        finishReason: result.finishReason,
        latencyMs: Math.round(result.latencyMs),
        attempts: result.attempts,
      },
    };
  } catch (error) {
    clearTimeout(stopping);
    // A provider failure after END (our abort, the caller's, or a stream cut short before its finish chunk) leaves the
    // envelope whole, and paid for: it is the reply (a caller's abort then stops the turn after it is saved). Anything
    // else (a bug in a provider) is reported as the failure it is.
    const stoppedAtEnd = ended && isProviderError(error);
    if (stoppedAtEnd) {
      const usage = estimatedUsage();
      const costUsd = computeCost(usage, options.model.prices);
      return {
        reply: {
          text,
          ...(markerAfterEnd.found ? { doneMarkerAfterEnd: true } : {}),
          provider: options.model.provider,
          model: options.model.modelId,
          ...usage,
          ...(costUsd === undefined ? {} : { costUsd }),
          finishReason: 'stopped-at-end',
          latencyMs: Math.round(performance.now() - started),
          attempts: 1,
        },
      };
    }
    const cancelled = options.signal?.aborted === true;
    const message = error instanceof Error ? error.message : String(error);
    if (!cancelled && outOfTime) return outOfTimeFailure();
    // A replay's recorded call that the ceiling cut: the same failure, in the recorded words.
    if (!cancelled && (error as { code?: unknown } | null)?.code === WALL_CLOCK_SPENT) return { failure: { code: WALL_CLOCK_SPENT, kind: 'timeout', message }, ...estimatedSpend() };
    if (isProviderError(error) || cancelled) return { failure: { code: isProviderError(error) ? error.code : 'PROVIDER_ERROR', kind: cancelled ? 'cancelled' : 'provider', message }, ...estimatedSpend() };
    // Anything else is the provider's own bug (a hand-written `generate`, a plugin's): named, or a bare "nope" would
    // say neither which model failed nor that its code, not the service, is at fault.
    const failed = `the model ${String(options.model.provider)}:${String(options.model.modelId)} failed: its generate() threw ${describeThrown(error)}, not a ProviderError`;
    return { failure: { code: 'PROVIDER_ERROR', kind: 'provider', message: `${failed}: ${message}` }, ...estimatedSpend() };
  } finally {
    clearTimeout(deadline);
    unfollow();
  }
}
