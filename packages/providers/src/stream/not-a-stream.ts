/**
 * A streamed request answered with no stream at all: a web page, a proxy's
 * answer or a server that ignores streaming, at a base URL that points at the
 * wrong place. Every provider says so alike, naming what came back (status
 * and content type) and what to check, when its stream ends, or fails to
 * parse, before its first event. The check waits for that moment rather than
 * refusing any answer not labelled as a stream: a server that labels a real
 * stream wrongly (`text/plain`) still works, as it did.
 */
import { runWithAttemptFetch } from '../call/attempt-fetch.ts';
import type { AttemptRequest } from '../call/model-attempt.ts';

/** What a streamed request was answered with. */
export interface StreamAnswer {
  status: number;
  /** The `content-type` header; undefined when there was none. */
  contentType: string | undefined;
}

/** The stream a provider reads, and the API its base URL should point at. */
export interface StreamFormat {
  /** `text/event-stream` (Server-Sent Events) or `application/x-ndjson` (Ollama's lines). */
  contentType: string;
  /** What the base URL should point at, e.g. `a Chat Completions API`. */
  api: string;
}

/** Server-Sent Events of the API named. */
export const eventStream = (api: string): StreamFormat => ({ contentType: 'text/event-stream', api });

/** The status and content type of a response. */
export function streamAnswerOf(response: { status: number; headers: Headers }): StreamAnswer {
  // An empty header (`Content-Type:` with nothing after it) says no more than a missing one.
  return { status: response.status, contentType: response.headers.get('content-type') || undefined };
}

/**
 * What a stream that ended (or broke) before its first event adds to its
 * error when the answer was not labelled as the stream expected: what came
 * back, and what to check. Empty when events came, the label was right (a
 * stream cut short), or the answer is unknown.
 */
export function notAStreamHint(answer: StreamAnswer | undefined, events: number, format: StreamFormat): string {
  if (answer === undefined || events > 0) return '';
  if (answer.contentType !== undefined && answer.contentType.toLowerCase().includes(format.contentType)) return '';
  const label = answer.contentType === undefined ? 'no content-type' : `content-type ${answer.contentType}`;
  return ` (no events: the answer was HTTP ${answer.status} with ${label}, not ${format.contentType}; check that the base URL points at ${format.api}, not at a web page, a proxy or another server, and that the server streams)`;
}

/** Runs an SDK's streamed request while noting the answer it got, for SDKs that do not hand their response over. */
export interface StreamAnswerTap {
  run<T>(call: () => Promise<T>): Promise<T>;
  /** The last answer a request made inside `run` got. */
  readonly answer: StreamAnswer | undefined;
}

/**
 * A {@link StreamAnswerTap} over the attempt's fetch (the `@google/genai` and
 * `ollama` clients read the body themselves and keep the response). `reshape`
 * may replace a successful answer before the SDK reads it.
 */
export function streamAnswerTap(request: AttemptRequest, reshape?: (response: Response) => Response): StreamAnswerTap {
  let answer: StreamAnswer | undefined;
  const noting: typeof globalThis.fetch = async (input, init) => {
    const response = await request.fetch(input, init);
    answer = streamAnswerOf(response);
    return reshape !== undefined && response.ok ? reshape(response) : response;
  };
  return {
    run: (call) => runWithAttemptFetch(noting, call),
    get answer() {
      return answer;
    },
  };
}
