import type { ChatResponse, Ollama } from 'ollama';
import { badResponse } from '../call/bad-response.ts';
import { ProviderError } from '../errors/provider-error.ts';
import { jsonLinesChecked, NOT_JSON_LINE } from './ollama-error-body.ts';
import { notAStreamHint, streamAnswerTap, type StreamFormat } from '../stream/not-a-stream.ts';
import type { AttemptRequest, AttemptResult, ModelAttempt } from '../call/model-attempt.ts';
import type { FinishReason } from '../model/finish-reason.ts';
import { ollamaChatRequest } from './ollama-request.ts';

/** Ollama streams NDJSON lines from its native chat API. */
const NDJSON: StreamFormat = { contentType: 'application/x-ndjson', api: "Ollama's native API (the server's address, without /v1)" };
const STREAM_ENDED = 'the stream ended without a line with done: true';

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
    const onText = request.onText;
    // The client reads the body itself and keeps the response: the tap notes what answered, for notAStreamHint, and
    // has the lines of an answer not labelled NDJSON (a page) checked too, which the client would print and skip.
    const tap = streamAnswerTap(request, jsonLinesChecked);
    const lines: unknown[] = [];
    let text = '';
    let final: ChatResponse | undefined;
    // Events are chat lines: a JSON answer that is no chat line (`{"detail": …}` from another server) is one line, no event.
    const notAStream = (): string => notAStreamHint(tap.answer, lines.filter(isChatLine).length, NDJSON);
    await tap.run(async () => {
      const stream = await client.chat({ ...body, stream: true } as never as Parameters<Ollama['chat']>[0] & { stream: true });
      try {
        for await (const part of stream) {
          lines.push(part);
          const delta = part.message?.content;
          if (typeof delta === 'string' && delta !== '') {
            text += delta;
            onText(delta);
          }
          if (part.done) final = part;
        }
      } catch (error) {
        throw streamError(error, notAStream);
      } finally {
        forgetStream(client, stream);
      }
    });
    if (final === undefined) throw badResponse(`${STREAM_ENDED}${notAStream()}`);
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
 * stream cut short, and for an `{"error": …}` line sent mid-stream (among
 * them the ones `ollamaFetch` makes of lines that are not JSON).
 */
function streamError(error: unknown, notAStream: () => string): unknown {
  if (!(error instanceof Error) || error.constructor !== Error) return error;
  if (/did not receive done/i.test(error.message)) return badResponse(`${STREAM_ENDED}${notAStream()}`);
  if (error.message.startsWith(NOT_JSON_LINE)) {
    // A first line that is not JSON, in an answer not labelled NDJSON (a page): say what answered, as every provider does.
    const hint = notAStream();
    return badResponse(hint === '' ? error.message : `${STREAM_ENDED}${hint}`);
  }
  return new ProviderError({ code: 'PROVIDER_SERVER', message: `error in stream: ${error.message}` });
}

/** A line of Ollama's chat stream: it carries a message or says whether it is the last. */
function isChatLine(line: unknown): boolean {
  return typeof line === 'object' && line !== null && ('message' in line || 'done' in line);
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
