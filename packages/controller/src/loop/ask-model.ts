/**
 * The model call of a turn: streamed through `EnvelopeStreamParser`, and
 * stopped at the END line so no token after it is paid for. Nothing after the
 * delta holding END is read. The call is aborted once the stream has nothing
 * more already received (a `setImmediate` after END): a reply whose finish and
 * usage arrived with its END line (a server that writes the end of a reply at
 * once, as the benchmark's does) ends by itself, keeping its connection for
 * the next call and its real usage; one whose last chunks come in later reads
 * is aborted as before. An aborted call is
 * reported by providers as `PROVIDER_ABORTED` without usage: the text received
 * is kept and the usage estimated (4 characters a token).
 */
import { EnvelopeStreamParser } from '@askloop/envelope';
import { computeCost, isProviderError, type LanguageModel } from '@askloop/providers';
import type { GenerationSettings } from '@askloop/providers';
import { followSignal } from './follow-signal.ts';
import type { RecordedReply, TurnFailure } from './turn-record.ts';

/** The outcome of asking: a reply, or the provider failure. */
export type AskOutcome = { readonly reply: RecordedReply } | { readonly failure: TurnFailure };

/** Options of {@link askModel}. */
export interface AskModelOptions {
  readonly model: LanguageModel;
  readonly system: string;
  readonly prompt: string;
  readonly settings: GenerationSettings;
  readonly signal?: AbortSignal;
  readonly onText?: (delta: string) => void;
}

const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

/** Calls the model once (the provider retries inside), stopping at END. */
export async function askModel(options: AskModelOptions): Promise<AskOutcome> {
  const parser = new EnvelopeStreamParser();
  const stop = new AbortController();
  // The call stops on the caller's signal or at END; followed, not composed (`follow-signal.ts`).
  const unfollow = followSignal(options.signal, stop);
  const { signal } = stop;
  let text = '';
  let parsing = true;
  let ended = false;
  let stopping: NodeJS.Immediate | undefined;
  const started = performance.now();
  const onText = (delta: string): void => {
    // After END nothing more is read, even from a provider that does not stop at once.
    if (ended) return;
    text += delta;
    options.onText?.(delta);
    if (!parsing) return;
    try {
      if (parser.push(delta) === 'complete') {
        parsing = false;
        ended = true;
        // Not at once: aborting a stream whose end is already here costs its connection (undici closes the socket)
        // and its real usage. Deltas already received arrive before the immediate; a model still generating is stopped.
        stopping = setImmediate(() => stop.abort(new Error('the envelope is complete')));
      }
    } catch {
      // Not a strict envelope (prose, a fence): keep streaming; the tolerant extraction decides later.
      parsing = false;
    }
  };
  try {
    const result = await options.model.generate({ system: options.system, prompt: options.prompt, settings: options.settings, signal, onText });
    clearImmediate(stopping);
    return {
      reply: {
        text: ended ? text : result.text,
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
    clearImmediate(stopping);
    // A provider failure after END (our abort, or a stream cut short before its finish chunk) leaves the envelope whole;
    // anything else (a bug in a provider) is reported as the failure it is.
    const stoppedAtEnd = ended && options.signal?.aborted !== true && isProviderError(error);
    if (stoppedAtEnd) {
      const usage = { inputTokens: estimateTokens(options.system) + estimateTokens(options.prompt), outputTokens: estimateTokens(text) };
      const costUsd = computeCost(usage, options.model.prices);
      return {
        reply: {
          text,
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
    const code = isProviderError(error) ? error.code : 'PROVIDER_ERROR';
    const cancelled = options.signal?.aborted === true;
    const message = error instanceof Error ? error.message : String(error);
    return { failure: { code, kind: cancelled ? 'cancelled' : 'provider', message } };
  } finally {
    unfollow();
  }
}
