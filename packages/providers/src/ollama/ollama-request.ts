import type { AttemptRequest } from '../call/model-attempt.ts';

/** Builds the `/api/chat` body (without `stream`); settings go in `options` as Ollama names them. */
export function ollamaChatRequest(modelId: string, request: AttemptRequest, keepAlive: string | number | undefined): Record<string, unknown> {
  const { settings } = request;
  const options: Record<string, unknown> = {};
  if (settings.temperature !== undefined) options['temperature'] = settings.temperature;
  if (settings.topP !== undefined) options['top_p'] = settings.topP;
  if (settings.topK !== undefined) options['top_k'] = settings.topK;
  if (settings.maxOutputTokens !== undefined) options['num_predict'] = settings.maxOutputTokens;
  if (settings.stopSequences !== undefined && settings.stopSequences.length > 0) options['stop'] = [...settings.stopSequences];
  if (settings.seed !== undefined) options['seed'] = settings.seed;
  return {
    model: modelId,
    messages: [
      ...(request.system === undefined ? [] : [{ role: 'system', content: request.system }]),
      ...request.messages.map((message) => ({ role: message.role, content: message.content })),
      { role: 'user', content: request.prompt },
    ],
    ...(Object.keys(options).length > 0 ? { options } : {}),
    ...(keepAlive === undefined ? {} : { keep_alive: keepAlive }),
  };
}
