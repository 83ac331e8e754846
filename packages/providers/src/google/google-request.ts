import type { AttemptRequest } from '../call/model-attempt.ts';

/**
 * Builds `contents` and `config` for `models.generateContent`. Every
 * generation setting is sent: the Go reference sent none (reference §4.3).
 */
export function googleRequest(request: AttemptRequest): { contents: unknown[]; config: Record<string, unknown> } {
  const { settings } = request;
  const contents = [
    ...request.messages.map((message) => ({ role: message.role === 'assistant' ? 'model' : 'user', parts: [{ text: message.content }] })),
    { role: 'user', parts: [{ text: request.prompt }] },
  ];
  const config: Record<string, unknown> = { abortSignal: request.signal };
  if (request.system !== undefined) config['systemInstruction'] = request.system;
  if (settings.temperature !== undefined) config['temperature'] = settings.temperature;
  if (settings.topP !== undefined) config['topP'] = settings.topP;
  if (settings.topK !== undefined) config['topK'] = settings.topK;
  if (settings.maxOutputTokens !== undefined) config['maxOutputTokens'] = settings.maxOutputTokens;
  if (settings.stopSequences !== undefined && settings.stopSequences.length > 0) config['stopSequences'] = [...settings.stopSequences];
  if (settings.seed !== undefined) config['seed'] = settings.seed;
  return { contents, config };
}
