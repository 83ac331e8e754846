/**
 * Wraps a dynamic `import()` so the module loads on the first call only and
 * is shared afterwards. Provider SDKs load this way, on a model's first call
 * (`ProviderDefinition.load`, before the attempt's timer starts): a program
 * that imports `@askloop/providers` but never calls OpenAI does not pay for
 * parsing the `openai` package (hundreds of milliseconds for all SDKs
 * together). A failed load is not cached, so a later call can try again.
 */
export function lazyImport<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
