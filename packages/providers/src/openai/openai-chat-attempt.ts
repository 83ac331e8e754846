import type OpenAI from 'openai';
import { badResponse } from '../call/bad-response.ts';
import type { AttemptRequest, AttemptResult, ModelAttempt } from '../call/model-attempt.ts';
import { openAIChatBody, openAIChatWarnings, type MaxTokensField } from './openai-chat-body.ts';
import { jsonAnswerType, readWholeAnswer } from '../stream/json-instead-of-stream.ts';
import { eventStream, notAStreamHint, streamAnswerOf } from '../stream/not-a-stream.ts';
import { openAIStreamEvents } from './openai-stream-events.ts';
import { openAIFinishReason } from './openai-finish-reason.ts';
import { openAIUsage, type OpenAIUsage } from './openai-usage.ts';

const CHAT_STREAM = eventStream('a Chat Completions API');

/** What the Chat Completions wire code needs. */
export interface OpenAIChatOptions {
  modelId: string;
  client: (request: AttemptRequest) => Promise<OpenAI>;
  maxTokensField: MaxTokensField;
  /** Ask for usage in the last stream chunk (`stream_options.include_usage`). */
  includeStreamUsage: boolean;
}

/** One Chat Completions request (`POST /chat/completions`), plain or streamed. */
export function openAIChatAttempt(options: OpenAIChatOptions): ModelAttempt {
  return async (request) => {
    const client = await options.client(request);
    const body = openAIChatBody(options.modelId, request, options.maxTokensField);
    const warnings = openAIChatWarnings(request);
    if (request.onText === undefined) {
      const response = await client.chat.completions.create(
        body as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming,
        { signal: request.signal },
      );
      return completionResult(response, warnings);
    }
    // The SDK sends the request and reports HTTP errors; the events are read from the body here (openAIStreamEvents).
    const response = await client.chat.completions.create(
      {
        ...body,
        stream: true,
        ...(options.includeStreamUsage ? { stream_options: { include_usage: true } } : {}),
      } as unknown as OpenAI.ChatCompletionCreateParamsStreaming,
      { signal: request.signal },
    ).asResponse();
    // A compatible server that ignores `stream: true` answers one JSON completion: read whole, delivered as one delta.
    const jsonType = jsonAnswerType(response);
    if (jsonType !== undefined) {
      const answered = await readWholeAnswer<OpenAI.ChatCompletion>(response, jsonType, CHAT_STREAM, (whole) => completionResult(whole, warnings));
      if (answered.text !== '') request.onText(answered.text);
      return answered;
    }
    const chunks: ChatChunk[] = [];
    let text = '';
    let finishReason: string | null | undefined;
    let usage: OpenAIUsage | null | undefined;
    for await (const event of openAIStreamEvents(response)) {
      const chunk = event as ChatChunk;
      chunks.push(chunk);
      const choice = chunk.choices?.[0];
      const delta = choice?.delta?.content;
      if (typeof delta === 'string') {
        text += delta;
        request.onText(delta);
      }
      finishReason = choice?.finish_reason ?? finishReason;
      usage = chunk.usage ?? usage;
    }
    // A stream cut short (connection dropped, proxy timeout) must not pass for a complete reply.
    if (finishReason === undefined || finishReason === null) {
      throw badResponse(`the stream ended before any finish_reason${notAStreamHint(streamAnswerOf(response), chunks.length, CHAT_STREAM)}`);
    }
    return result(text, usage, finishReason, { chunks }, warnings);
  };
}

/** A whole `chat.completion`'s result: its first choice's content, or `PROVIDER_BAD_RESPONSE` when it has none. */
function completionResult(response: OpenAI.ChatCompletion, warnings: string[]): AttemptResult {
  const choice = Array.isArray(response?.choices) ? response.choices[0] : undefined;
  const content = choice?.message?.content;
  if (choice === undefined || (typeof content !== 'string' && content !== null)) {
    throw badResponse('no choices[0].message.content in the response');
  }
  return result(content ?? '', response.usage, choice.finish_reason, response, warnings);
}

/** The fields of a `chat.completion.chunk` we read. */
interface ChatChunk {
  choices?: { delta?: { content?: unknown }; finish_reason?: string | null }[];
  usage?: OpenAIUsage | null;
}

function result(text: string, usage: OpenAIUsage | null | undefined, reason: string | null | undefined, raw: unknown, warnings: string[]): AttemptResult {
  return {
    text,
    usage: openAIUsage(usage),
    finishReason: openAIFinishReason(reason),
    rawFinishReason: reason ?? undefined,
    raw,
    warnings,
  };
}
