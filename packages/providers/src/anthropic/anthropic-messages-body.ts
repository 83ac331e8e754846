import type { AttemptRequest } from '../call/model-attempt.ts';

/** Builds the Messages API request body (without `stream`); `max_tokens` is required there. */
export function anthropicMessagesBody(modelId: string, request: AttemptRequest, defaultMaxTokens: number): Record<string, unknown> {
  const { settings } = request;
  const body: Record<string, unknown> = {
    model: modelId,
    max_tokens: settings.maxOutputTokens ?? defaultMaxTokens,
    messages: [
      ...request.messages.map((message) => ({ role: message.role, content: message.content })),
      { role: 'user', content: request.prompt },
    ],
  };
  if (request.system !== undefined) body['system'] = request.system;
  if (settings.temperature !== undefined) body['temperature'] = settings.temperature;
  if (settings.topP !== undefined) body['top_p'] = settings.topP;
  if (settings.topK !== undefined) body['top_k'] = settings.topK;
  if (settings.stopSequences !== undefined && settings.stopSequences.length > 0) body['stop_sequences'] = [...settings.stopSequences];
  return body;
}

/** Settings the Messages API has no field for. */
export function anthropicWarnings(request: AttemptRequest): string[] {
  return request.settings.seed === undefined ? [] : ['seed is not supported by the Anthropic Messages API; ignored'];
}
