/**
 * Live calls against the real services. Each runs only when its key (or a
 * local Ollama) is present and is skipped otherwise, with the reason in its
 * title. One short call per provider; pick models with *_LIVE_MODEL.
 */
import { describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../src/anthropic/anthropic-provider.ts';
import { createGoogleProvider } from '../../src/google/google-provider.ts';
import type { LanguageModel } from '../../src/model/language-model.ts';
import { createOllamaProvider, OLLAMA_DEFAULT_HOST } from '../../src/ollama/ollama-provider.ts';
import { createOpenAIProvider } from '../../src/openai/openai-provider.ts';

const environment = process.env;
const googleKey = environment['GOOGLE_GENERATIVE_AI_API_KEY'] ?? environment['GEMINI_API_KEY'] ?? environment['GOOGLE_API_KEY'];
const ollamaHost = environment['OLLAMA_HOST'] ?? OLLAMA_DEFAULT_HOST;
const ollamaModel = environment['OLLAMA_LIVE_MODEL'] ?? (await firstOllamaModel(ollamaHost));

async function firstOllamaModel(host: string): Promise<string | undefined> {
  try {
    const response = await fetch(`${host}/api/tags`, { signal: AbortSignal.timeout(500) });
    const body = (await response.json()) as { models?: { name: string }[] };
    return body.models?.[0]?.name;
  } catch {
    return undefined;
  }
}

interface LiveCase {
  name: string;
  skipReason: string | undefined;
  secret: string | undefined;
  model: () => LanguageModel;
}

const cases: LiveCase[] = [
  {
    name: 'openai',
    skipReason: environment['OPENAI_API_KEY'] ? undefined : 'OPENAI_API_KEY is not set',
    secret: environment['OPENAI_API_KEY'],
    model: () => createOpenAIProvider().languageModel(environment['OPENAI_LIVE_MODEL'] ?? 'gpt-4.1-mini'),
  },
  {
    name: 'anthropic',
    skipReason: environment['ANTHROPIC_API_KEY'] ? undefined : 'ANTHROPIC_API_KEY is not set',
    secret: environment['ANTHROPIC_API_KEY'],
    model: () => createAnthropicProvider().languageModel(environment['ANTHROPIC_LIVE_MODEL'] ?? 'claude-haiku-4-5'),
  },
  {
    name: 'google',
    skipReason: googleKey ? undefined : 'GOOGLE_GENERATIVE_AI_API_KEY, GEMINI_API_KEY and GOOGLE_API_KEY are not set',
    secret: googleKey,
    model: () => createGoogleProvider().languageModel(environment['GOOGLE_LIVE_MODEL'] ?? 'gemini-2.5-flash'),
  },
  {
    name: 'ollama',
    skipReason: ollamaModel ? undefined : `no Ollama with a pulled model at ${ollamaHost} (or set OLLAMA_LIVE_MODEL)`,
    secret: undefined,
    model: () => createOllamaProvider().languageModel(ollamaModel ?? 'unused'),
  },
];

const skipped = cases.filter((entry) => entry.skipReason !== undefined);
if (skipped.length > 0) {
  console.info(`live provider tests skipped: ${skipped.map((entry) => `${entry.name} (${entry.skipReason})`).join('; ')}`);
}

describe('live providers', () => {
  for (const entry of cases) {
    const title = entry.skipReason === undefined ? `${entry.name}: one real call, plain and streamed` : `${entry.name}: skipped, ${entry.skipReason}`;
    it.skipIf(entry.skipReason !== undefined)(title, { timeout: 120_000 }, async () => {
      const model = entry.model();
      const options = { system: 'Answer with one word.', prompt: 'Say "pong".', settings: { temperature: 0, maxOutputTokens: 64 } };
      const plain = await model.generate(options);
      const deltas: string[] = [];
      const streamed = await model.generate({ ...options, onText: (delta) => deltas.push(delta) });
      expect(plain.text.toLowerCase()).toContain('pong');
      expect(plain.usage.inputTokens).toBeGreaterThan(0);
      expect(deltas.join('')).toBe(streamed.text);
      if (entry.secret !== undefined) expect(JSON.stringify([plain, streamed])).not.toContain(entry.secret);
    });
  }
});
