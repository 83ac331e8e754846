import type { ModelAttempt } from '../call/model-attempt.ts';
import { openAIChatAttempt, type OpenAIChatOptions } from './openai-chat-attempt.ts';
import { openAIResponsesAttempt } from './openai-responses-attempt.ts';

/** Which OpenAI API a model calls. */
export type OpenAIApi = 'chat' | 'responses';

/** Picks the Chat Completions or the Responses wire code. */
export function openAIAttempt(options: OpenAIChatOptions & { api: OpenAIApi }): ModelAttempt {
  return options.api === 'responses' ? openAIResponsesAttempt(options) : openAIChatAttempt(options);
}
