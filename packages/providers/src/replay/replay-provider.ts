import { readFile } from 'node:fs/promises';
import { ProviderError } from '../errors/provider-error.ts';
import type { LanguageModel } from '../model/language-model.ts';
import { createScriptedModel, type ScriptedModelSettings } from '../scripted/scripted-provider.ts';
import type { ScriptedReply } from '../scripted/scripted-reply.ts';
import { parseReplayTranscript } from './parse-replay-transcript.ts';
import type { ReplayRecord } from './replay-record.ts';

/** Where a replay model reads its transcript from. */
export type ReplaySource = { path: string } | { text: string } | { records: readonly ReplayRecord[] };

/** Settings of {@link createReplayModel}. */
export type ReplayModelSettings = Omit<ScriptedModelSettings, 'whenExhausted'>;

/**
 * A model that replays the replies of a recorded transcript in order (see the
 * README for the format), to reproduce a run without a provider. A file is
 * read on the first call. Recorded errors are replayed as errors, without
 * retries. Running past the last reply is `PROVIDER_SCRIPT_EXHAUSTED`.
 */
export function createReplayModel(source: ReplaySource, settings: ReplayModelSettings = {}): LanguageModel {
  let records: Promise<readonly ReplayRecord[]> | undefined;
  const load = (): Promise<readonly ReplayRecord[]> => {
    records ??= loadRecords(source);
    return records;
  };
  return createScriptedModel(
    async (turn) => {
      const record = (await load())[turn.index];
      if (record === undefined) {
        throw new ProviderError({ code: 'PROVIDER_SCRIPT_EXHAUSTED', message: `the transcript has no reply for attempt ${turn.index + 1}` });
      }
      return toReply(record);
    },
    {
      ...settings,
      provider: settings.provider ?? 'replay',
      modelId: settings.modelId ?? 'replay',
      // A recorded failure was the final outcome of its call: replay it, do not retry into the next record.
      retry: { maxRetries: 0, ...settings.retry },
    },
  );
}

async function loadRecords(source: ReplaySource): Promise<readonly ReplayRecord[]> {
  if ('records' in source) return source.records;
  if ('text' in source) return parseReplayTranscript(source.text);
  try {
    return parseReplayTranscript(await readFile(source.path, 'utf8'));
  } catch (error) {
    if (error instanceof ProviderError) throw error;
    throw new ProviderError({ code: 'PROVIDER_REPLAY_INVALID', message: `cannot read ${source.path}: ${(error as Error).message}` });
  }
}

function toReply(record: ReplayRecord): ScriptedReply {
  if (record.error !== undefined) {
    return { error: record.error.code, errorMessage: record.error.message ?? `replayed ${record.error.code}` };
  }
  return { text: record.text ?? '', usage: record.usage, finishReason: record.finishReason };
}
