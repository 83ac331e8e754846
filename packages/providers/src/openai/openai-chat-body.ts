import type { AttemptRequest } from '../call/model-attempt.ts';

/** Which field carries the output limit: OpenAI wants `max_completion_tokens`, most compatible servers `max_tokens`. */
export type MaxTokensField = 'max_completion_tokens' | 'max_tokens';

/** Builds the Chat Completions request body (without `stream`). */
export function openAIChatBody(modelId: string, request: AttemptRequest, maxTokensField: MaxTokensField): Record<string, unknown> {
  const { settings } = request;
  const messages = [
    ...(request.system === undefined ? [] : [{ role: 'system', content: request.system }]),
    ...request.messages.map((message) => ({ role: message.role, content: message.content })),
    { role: 'user', content: request.prompt },
  ];
  const body: Record<string, unknown> = { model: modelId, messages };
  if (settings.temperature !== undefined) body['temperature'] = settings.temperature;
  if (settings.topP !== undefined) body['top_p'] = settings.topP;
  if (settings.maxOutputTokens !== undefined) body[maxTokensField] = settings.maxOutputTokens;
  if (settings.stopSequences !== undefined && settings.stopSequences.length > 0) body['stop'] = [...settings.stopSequences];
  if (settings.seed !== undefined) body['seed'] = settings.seed;
  return body;
}

/** Settings Chat Completions has no field for. */
export function openAIChatWarnings(request: AttemptRequest): string[] {
  return request.settings.topK === undefined ? [] : ['topK is not supported by Chat Completions; ignored'];
}
