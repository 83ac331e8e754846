/** A prior turn of the conversation, sent before the current envelope text. */
export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
}
