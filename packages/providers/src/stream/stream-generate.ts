import type { GenerateOptions, GenerateResult, LanguageModel } from '../model/language-model.ts';

/** A streamed call: the text as it arrives, and the same final result as `generate`. */
export interface StreamGenerateResult {
  textStream: AsyncIterable<string>;
  result: Promise<GenerateResult>;
}

/**
 * Runs `model.generate` with streaming and exposes the deltas as an async
 * iterable. Iterating ends when the call ends; a failed call throws from the
 * iterator and rejects `result` with the same `ProviderError`.
 */
export function streamGenerate(model: LanguageModel, options: Omit<GenerateOptions, 'onText'>): StreamGenerateResult {
  const queue: string[] = [];
  let finished = false;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    wake?.();
    wake = undefined;
  };
  const result = model.generate({ ...options, onText: (delta) => { queue.push(delta); notify(); } });
  result.then(
    () => { finished = true; notify(); },
    (error: unknown) => { failure = { error }; finished = true; notify(); },
  );
  async function* textStream(): AsyncGenerator<string> {
    for (;;) {
      const next = queue.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (failure !== undefined) throw failure.error;
      if (finished) return;
      await new Promise<void>((resolve) => { wake = resolve; });
    }
  }
  return { textStream: textStream(), result };
}
