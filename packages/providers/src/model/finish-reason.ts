/** Why the model stopped, normalised across providers (same names as the AI SDK). */
export type FinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';

/** Every {@link FinishReason}, for the checks of what a provider resolves. */
export const FINISH_REASONS: readonly FinishReason[] = ['stop', 'length', 'content-filter', 'tool-calls', 'error', 'other'];
