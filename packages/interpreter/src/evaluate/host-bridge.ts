/**
 * What the evaluator needs from its host: one synchronous request channel
 * (tool calls, `ask`, `promptuser`) and an optional event sink for live
 * progress. Inside the isolate it is backed by the sandbox's `__host`; in
 * plain Node (tests) by ordinary functions. Only JSON data crosses it.
 */
import type { JsonValue, NeededGrant } from '../runtime/index.ts';

/** A failure reported by the host for a request, as data. */
export interface HostFailure {
  readonly code: string;
  readonly message: string;
  readonly numericCode?: number;
  /** For a denial a grant would lift: that grant (read with `neededGrantOf`, so only its two strings cross). */
  readonly grant?: NeededGrant;
}

/** The host's answer to a request. */
export type HostReply = { readonly ok: true; readonly value: JsonValue } | { readonly ok: false; readonly error: HostFailure };

/** The kinds of requests the evaluator makes. */
export type HostRequest =
  | { readonly kind: 'tool'; readonly name: string; readonly args: readonly JsonValue[] }
  | { readonly kind: 'ask'; readonly agent: string; readonly prompt: string; readonly options: JsonValue }
  | { readonly kind: 'promptuser'; readonly prompt: string };

/** Live progress events. */
export type HostEvent = { readonly kind: 'emit'; readonly text: string; readonly line: number } | { readonly kind: 'whisper'; readonly target: string; readonly text: string };

/** The host as the evaluator sees it. */
export interface HostBridge {
  /** Performs a request synchronously (the sandbox blocks the isolate while the host awaits). */
  request(request: HostRequest): HostReply;
  /** Streams an event, when the host asked for streaming. */
  event?(event: HostEvent): void;
  /** Milliseconds since the epoch, for the wall-clock quota. */
  now(): number;
  /**
   * Where the run is, kept up to date by the evaluator for a host that may
   * have to stop the run without its help: `[0]` a source line, `[1]` the
   * fuel spent (`src/sandbox/checkpoint-memory.ts`). Written at each clock
   * read (at most 1024 steps apart) and before each request, so the line is
   * one the run passed within its last ~1,000 steps. In the sandbox it is
   * shared memory the worker reads as it forwards each request and after the
   * isolate is gone.
   */
  readonly checkpoint?: Float64Array;
}
