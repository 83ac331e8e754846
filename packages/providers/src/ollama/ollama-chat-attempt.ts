import type { ChatResponse, Ollama } from 'ollama';
import { badResponse } from '../call/bad-response.ts';
import { ProviderError } from '../errors/provider-error.ts';
import { NOT_JSON_LINE } from './ollama-error-body.ts';
import type { AttemptRequest, AttemptResult, ModelAttempt } from '../call/model-attempt.ts';
import type { FinishReason } from '../model/finish-reason.ts';
import { ollamaChatRequest } from './ollama-request.ts';

/** What the `/api/chat` wire code needs. */
export interface OllamaChatOptions {
  modelId: string;
  client: (request: AttemptRequest) => Promise<Ollama>;
  keepAlive: string | number | undefined;
}

/** One native `/api/chat` request; streaming reads Ollama's NDJSON lines. */
export function ollamaChatAttempt(options: OllamaChatOptions): ModelAttempt {
  return async (request) => {
    const client = await options.client(request);
    const body = ollamaChatRequest(options.modelId, request, options.keepAlive);
    if (request.onText === undefined) {
      const response = await client.chat({ ...body, stream: false } as never as Parameters<Ollama['chat']>[0] & { stream: false });
      if (typeof response?.message?.content !== 'string') throw badResponse('no message.content in the response');
      return result(response.message.content, response, response);
    }
    const stream = await client.chat({ ...body, stream: true } as never as Parameters<Ollama['chat']>[0] & { stream: true });
    const lines: unknown[] = [];
    let text = '';
    let final: ChatResponse | undefined;
    try {
      for await (const part of stream) {
        lines.push(part);
        const delta = part.message?.content;
        if (typeof delta === 'string' && delta !== '') {
          text += delta;
          request.onText(delta);
        }
        if (part.done) final = part;
      }
    } catch (error) {
      throw streamError(error);
    } finally {
      forgetStream(client, stream);
    }
    if (final === undefined) throw badResponse('the stream ended without a line with done: true');
    return result(text, final, { lines });
  };
}

/**
 * The client is shared by every request of the provider, and the `ollama`
 * package keeps each streamed request in a list on the client (for its
 * `abort()`), removing it only when a line with `done: true` arrives. A stream
 * that failed, was aborted or was cut short would stay in that list for the
 * client's life, holding its response: take it out whatever happened.
 */
function forgetStream(client: Ollama, stream: unknown): void {
  const ongoing = (client as unknown as { ongoingStreamedRequests?: unknown[] }).ongoingStreamedRequests;
  const index = ongoing?.indexOf(stream) ?? -1;
  if (index !== -1) ongoing?.splice(index, 1);
}

/**
 * The `ollama` package throws plain `Error`s from its NDJSON reader: for a
 * stream cut short, and for an `{"error": …}` line sent mid-stream.
 */
function streamError(error: unknown): unknown {
  if (!(error instanceof Error) || error.constructor !== Error) return error;
  if (/did not receive done/i.test(error.message)) return badResponse('the stream ended without a line with done: true');
  if (error.message.startsWith(NOT_JSON_LINE)) return badResponse(error.message);
  return new ProviderError({ code: 'PROVIDER_SERVER', message: `error in stream: ${error.message}` });
}

function result(text: string, final: ChatResponse, raw: unknown): AttemptResult {
  const reason = final.done_reason || undefined;
  return {
    text,
    usage: { inputTokens: final.prompt_eval_count ?? 0, outputTokens: final.eval_count ?? 0 },
    finishReason: finishReason(reason),
    rawFinishReason: reason,
    raw,
  };
}

function finishReason(reason: string | undefined): FinishReason {
  if (reason === 'stop') return 'stop';
  if (reason === 'length') return 'length';
  return 'other';
}
