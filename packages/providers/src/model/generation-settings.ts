/**
 * Sampling and length settings for one call. Every provider sends each field
 * it supports (the Go reference dropped them for Google, reference §4.3) and
 * reports the ones it had to ignore in `GenerateResult.warnings`.
 */
export interface GenerationSettings {
  temperature?: number | undefined;
  topP?: number | undefined;
  topK?: number | undefined;
  maxOutputTokens?: number | undefined;
  stopSequences?: readonly string[] | undefined;
  /** Sent where the provider supports it (OpenAI, Gemini, Ollama, AI SDK); ignored with a warning elsewhere. */
  seed?: number | undefined;
}
