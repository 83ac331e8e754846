import type { AttemptRequest } from '../call/model-attempt.ts';

/** Builds the Responses API body (`POST /responses`, without `stream`); the system text goes in `instructions`. */
export function openAIResponsesBody(modelId: string, request: AttemptRequest): Record<string, unknown> {
  const { settings } = request;
  const body: Record<string, unknown> = {
    model: modelId,
    input: [
      ...request.messages.map((message) => ({ role: message.role, content: message.content })),
      { role: 'user', content: request.prompt },
    ],
    // Transcripts are ours to keep; do not also store the conversation at OpenAI.
    store: false,
  };
  if (request.system !== undefined) body['instructions'] = request.system;
  if (settings.temperature !== undefined) body['temperature'] = settings.temperature;
  if (settings.topP !== undefined) body['top_p'] = settings.topP;
  if (settings.maxOutputTokens !== undefined) body['max_output_tokens'] = settings.maxOutputTokens;
  return body;
}

/** Settings the Responses API has no field for. */
export function openAIResponsesWarnings(request: AttemptRequest): string[] {
  const { settings } = request;
  return [
    ...(settings.topK === undefined ? [] : ['topK is not supported by the Responses API; ignored']),
    ...(settings.seed === undefined ? [] : ['seed is not supported by the Responses API; ignored']),
    ...(settings.stopSequences === undefined || settings.stopSequences.length === 0
      ? []
      : ['stopSequences are not supported by the Responses API; ignored']),
  ];
}
