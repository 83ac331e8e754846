import type { TokenUsage } from '../model/token-usage.ts';

/** The parts of a `GenerateContentResponse` we read. */
export interface GoogleResponse {
  candidates?: {
    content?: { parts?: { text?: string; thought?: boolean }[] };
    finishReason?: string;
  }[];
  promptFeedback?: { blockReason?: string };
  usageMetadata?: {
    promptTokenCount?: number;
    candidatesTokenCount?: number;
    thoughtsTokenCount?: number;
    cachedContentTokenCount?: number;
  };
}

/** Text of the first candidate, thoughts left out. */
export function googleText(response: GoogleResponse): string {
  const parts = response.candidates?.[0]?.content?.parts ?? [];
  return parts.map((part) => (typeof part.text === 'string' && part.thought !== true ? part.text : '')).join('');
}

/** Usage; thinking tokens are billed as output, so they count as output here. */
export function googleUsage(metadata: GoogleResponse['usageMetadata']): TokenUsage {
  return {
    inputTokens: metadata?.promptTokenCount ?? 0,
    outputTokens: (metadata?.candidatesTokenCount ?? 0) + (metadata?.thoughtsTokenCount ?? 0),
    ...(metadata?.cachedContentTokenCount === undefined ? {} : { cachedInputTokens: metadata.cachedContentTokenCount }),
  };
}

/** Drops the SDK's class wrapper and its copy of the HTTP headers, keeping the JSON body. */
export function googleRaw(response: unknown): unknown {
  const { sdkHttpResponse: _headers, ...body } = JSON.parse(JSON.stringify(response)) as Record<string, unknown>;
  return body;
}
