import type OpenAI from 'openai';
import { badResponse } from '../call/bad-response.ts';
import type { AttemptRequest, ModelAttempt } from '../call/model-attempt.ts';
import { jsonAnswerType, readWholeAnswer } from '../stream/json-instead-of-stream.ts';
import { eventStream, notAStreamHint, streamAnswerOf } from '../stream/not-a-stream.ts';
import { openAIStreamEvents } from './openai-stream-events.ts';
import { openAIResponsesBody, openAIResponsesWarnings } from './openai-responses-body.ts';
import { openAIResponsesResult, type OpenAIResponse } from './openai-responses-result.ts';

const RESPONSES_STREAM = eventStream('a Responses API');

/** Events of a streamed response that we read. */
interface ResponsesEvent {
  type: string;
  delta?: string;
  response?: OpenAIResponse;
}

/** One Responses API request (`POST /responses`), plain or streamed. */
export function openAIResponsesAttempt(options: { modelId: string; client: (request: AttemptRequest) => Promise<OpenAI> }): ModelAttempt {
  return async (request) => {
    const client = await options.client(request);
    const body = openAIResponsesBody(options.modelId, request);
    const warnings = openAIResponsesWarnings(request);
    if (request.onText === undefined) {
      // The SDK sends the request and reports HTTP errors; the body is read here: given one that is no JSON object (a
      // page, an empty body), the SDK's `'object' in body` threw a TypeError quoting the whole body as its message.
      const response = await client.responses.create(body as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming, { signal: request.signal }).asResponse();
      const whole = await wholeBody(response);
      return openAIResponsesResult(whole as OpenAIResponse, whole, warnings);
    }
    // The SDK sends the request and reports HTTP errors; the events are read from the body here (openAIStreamEvents).
    const response = await client.responses.create({ ...body, stream: true } as unknown as OpenAI.Responses.ResponseCreateParamsStreaming, { signal: request.signal }).asResponse();
    // A compatible server that ignores `stream: true` answers one JSON response: read whole, delivered as one delta.
    const jsonType = jsonAnswerType(response);
    if (jsonType !== undefined) {
      const answered = await readWholeAnswer<OpenAIResponse>(response, jsonType, RESPONSES_STREAM, (whole) => openAIResponsesResult(whole, whole, warnings));
      if (answered.text !== '') request.onText(answered.text);
      return answered;
    }
    const events: ResponsesEvent[] = [];
    let text = '';
    let final: OpenAIResponse | undefined;
    for await (const data of openAIStreamEvents(response)) {
      const event = data as unknown as ResponsesEvent;
      events.push(event);
      if (event.type === 'response.output_text.delta' && typeof event.delta === 'string') {
        text += event.delta;
        request.onText(event.delta);
      } else if (event.type === 'response.completed' || event.type === 'response.incomplete' || event.type === 'response.failed') {
        final = event.response;
      }
    }
    if (final === undefined) throw badResponse(`the stream ended before response.completed${notAStreamHint(streamAnswerOf(response), events.length, RESPONSES_STREAM)}`);
    return openAIResponsesResult(final, { events }, warnings, text);
  };
}

/**
 * A whole answer's body: parsed when it is labelled JSON (as the SDK parses it, an empty one as undefined), else its
 * text, which `openAIResponsesResult` refuses as holding no output. A JSON label on what is not JSON is
 * `PROVIDER_BAD_RESPONSE` naming its length, never its text, which may hold a key cut where the parser stopped.
 */
async function wholeBody(response: Response): Promise<unknown> {
  const text = await response.text();
  const mediaType = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (!(mediaType.includes('application/json') || mediaType.endsWith('+json'))) return text;
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badResponse(`the response is labelled ${mediaType} but is not JSON (${text.length} characters)`);
  }
}
