import type { ModelAttempt } from '../call/model-attempt.ts';
import { estimateTokens } from '../call/estimate-usage.ts';
import { ProviderError } from '../errors/provider-error.ts';
import { abortableSleep } from '../retry/abortable-sleep.ts';
import type { ScriptedReplies, ScriptedReply } from './scripted-reply.ts';

/** What happens after the last listed reply. */
export type WhenExhausted = 'error' | 'repeat-last';


/** Serves scripted replies, one per attempt, through the same path as real providers. */
export function scriptedAttempt(replies: ScriptedReplies, whenExhausted: WhenExhausted): ModelAttempt {
  let index = 0;
  return async (request) => {
    const turn = { index: index++, system: request.system, prompt: request.prompt, messages: request.messages, settings: request.settings };
    const reply = typeof replies === 'function' ? await replies(turn) : pick(replies, turn.index, whenExhausted);
    const spec = typeof reply === 'string' ? { text: reply } : reply;
    if (spec.delayMs !== undefined) await abortableSleep(spec.delayMs, request.signal);
    if (spec.error !== undefined) {
      throw new ProviderError({ code: spec.error, message: spec.errorMessage ?? `scripted ${spec.error}`, retryAfterMs: spec.retryAfterMs });
    }
    const text = spec.text ?? '';
    if (request.onText !== undefined) {
      for (const chunk of spec.chunks ?? text.match(/\s*\S+\s*/g) ?? [text]) request.onText(chunk);
    }
    const promptText = [request.system ?? '', ...request.messages.map((message) => message.content), request.prompt].join('\n');
    return {
      text,
      usage: {
        inputTokens: spec.usage?.inputTokens ?? estimateTokens(promptText),
        outputTokens: spec.usage?.outputTokens ?? estimateTokens(text),
        ...(spec.usage?.cachedInputTokens === undefined ? {} : { cachedInputTokens: spec.usage.cachedInputTokens }),
      },
      finishReason: spec.finishReason ?? 'stop',
      raw: { scripted: true, index: turn.index, reply: spec },
    };
  };
}

function pick(replies: readonly ScriptedReply[], index: number, whenExhausted: WhenExhausted): ScriptedReply {
  const reply = replies[index] ?? (whenExhausted === 'repeat-last' ? replies[replies.length - 1] : undefined);
  if (reply === undefined) {
    throw new ProviderError({
      code: 'PROVIDER_SCRIPT_EXHAUSTED',
      message: `no reply left: the script has ${replies.length} ${replies.length === 1 ? 'reply' : 'replies'} and this is call ${index + 1} to the model (one a turn, and one more for each retry); add replies to the script`,
    });
  }
  return reply;
}
