import { lazyImport } from '../call/lazy-import.ts';

/** The `openai` SDK, loaded when an OpenAI or OpenAI-compatible model first makes a call. */
export const loadOpenAI = lazyImport(async () => (await import('openai')).default);
