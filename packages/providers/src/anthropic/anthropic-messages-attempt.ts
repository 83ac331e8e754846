import type Anthropic from '@anthropic-ai/sdk';
import { badResponse } from '../call/bad-response.ts';
import type { AttemptRequest, AttemptResult, ModelAttempt } from '../call/model-attempt.ts';
import { jsonAnswerType, readWholeAnswer } from '../stream/json-instead-of-stream.ts';
import { eventStream, notAStreamHint, streamAnswerOf } from '../stream/not-a-stream.ts';
import { anthropicFinishReason } from './anthropic-finish-reason.ts';
import { anthropicMessagesBody, anthropicWarnings } from './anthropic-messages-body.ts';
import { anthropicUsage, type AnthropicUsage } from './anthropic-usage.ts';

const MESSAGES_STREAM = eventStream('a Messages API');

/** What the Messages wire code needs. */
export interface AnthropicMessagesOptions {
  modelId: string;
  client: (request: AttemptRequest) => Promise<Anthropic>;
  defaultMaxTokens: number;
}

/** One Messages API request (`POST /v1/messages`), plain or streamed (SSE). */
export function anthropicMessagesAttempt(options: AnthropicMessagesOptions): ModelAttempt {
  return async (request) => {
    const client = await options.client(request);
    const body = anthropicMessagesBody(options.modelId, request, options.defaultMaxTokens);
    const warnings = anthropicWarnings(request);
    if (request.onText === undefined) {
      const message = await client.messages.create(body as unknown as Anthropic.MessageCreateParamsNonStreaming, { signal: request.signal });
      return messageResult(message, warnings);
    }
    const { data: stream, response } = await client.messages.create({ ...body, stream: true } as unknown as Anthropic.MessageCreateParamsStreaming, { signal: request.signal }).withResponse();
    // A compatible server that ignores `stream: true` answers one JSON message: read whole (the stream left unread), delivered as one delta.
    const jsonType = jsonAnswerType(response);
    if (jsonType !== undefined) {
      const answered = await readWholeAnswer<Anthropic.Message>(response, jsonType, MESSAGES_STREAM, (whole) => messageResult(whole, warnings));
      if (answered.text !== '') request.onText(answered.text);
      return answered;
    }
    const events: unknown[] = [];
    let text = '';
    let usage: AnthropicUsage = {};
    let stopReason: string | null | undefined;
    let stopped = false;
    for await (const event of stream) {
      events.push(event);
      if (event.type === 'message_start') usage = { ...event.message.usage };
      else if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') {
        text += event.delta.text;
        request.onText(event.delta.text);
      } else if (event.type === 'message_delta') {
        stopReason = event.delta.stop_reason ?? stopReason;
        // message_delta usage is cumulative; null fields keep the message_start value.
        for (const [key, value] of Object.entries(event.usage)) {
          if (typeof value === 'number') (usage as Record<string, number>)[key] = value;
        }
      } else if (event.type === 'message_stop') stopped = true;
    }
    if (!stopped) throw badResponse(`the stream ended before message_stop${notAStreamHint(streamAnswerOf(response), events.length, MESSAGES_STREAM)}`);
    return {
      text,
      usage: anthropicUsage(usage),
      finishReason: anthropicFinishReason(stopReason),
      rawFinishReason: stopReason ?? undefined,
      raw: { events },
      warnings,
    };
  };
}

/** A whole message's result: its text blocks joined, or `PROVIDER_BAD_RESPONSE` without content or usage. */
function messageResult(message: Anthropic.Message, warnings: string[]): AttemptResult {
  if (!Array.isArray(message?.content) || typeof message.usage !== 'object' || message.usage === null) {
    throw badResponse('no content array or usage in the response');
  }
  const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
  return {
    text,
    usage: anthropicUsage(message.usage),
    finishReason: anthropicFinishReason(message.stop_reason),
    rawFinishReason: message.stop_reason ?? undefined,
    raw: message,
    warnings,
  };
}
