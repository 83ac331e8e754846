/** Why the model stopped, normalised across providers (same names as the AI SDK). */
export type FinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';
