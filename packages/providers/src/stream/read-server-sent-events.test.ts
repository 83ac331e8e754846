import { describe, expect, it } from 'vitest';
import { readServerSentEvents } from './read-server-sent-events.ts';
import type { ServerSentEvent } from './server-sent-event-parser.ts';

const encoder = new TextEncoder();

/** A body that hands out `chunks` one per read, then either ends or never ends; it records whether it was cancelled. */
function body(chunks: readonly string[], options: { end: boolean }) {
  let index = 0;
  const state = { cancelled: false, reads: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      state.reads++;
      const chunk = chunks[index++];
      if (chunk !== undefined) controller.enqueue(encoder.encode(chunk));
      else if (options.end) controller.close();
      // else: never answer, like a server that keeps the body open
      return undefined;
    },
    cancel() {
      state.cancelled = true;
    },
  }, { highWaterMark: 0 });
  return { stream, state };
}

const until = async (condition: () => boolean): Promise<void> => {
  for (let waited = 0; !condition(); waited += 5) {
    if (waited > 2_000) throw new Error('condition not met within 2 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

const isDone = (event: ServerSentEvent): boolean => event.data === '[DONE]';

describe('readServerSentEvents', () => {
  it('yields the events of the whole body and does not cancel it', async () => {
    const { stream, state } = body(['data: 1\n\nda', 'ta: 2\n\n'], { end: true });
    const events = [];
    for await (const event of readServerSentEvents(stream)) events.push(event.data);
    expect(events).toEqual(['1', '2']);
    expect(state.cancelled).toBe(false);
  });

  it('stops at the last event without yielding it or what follows, and reads the rest of the body to its end instead of cancelling it', async () => {
    const { stream, state } = body(['data: first\n\n', 'data: [DONE]\n\ndata: after\n\n', 'tail the server wrote later'], { end: true });
    const events = [];
    for await (const event of readServerSentEvents(stream, { isLast: isDone })) events.push(event.data);
    expect(events).toEqual(['first']);
    // The fourth pull is the one that finds the end: the tail was read, then the end, and nothing was cancelled.
    await until(() => state.reads >= 4);
    expect(state.cancelled).toBe(false);
  });

  it('throws PROVIDER_BAD_RESPONSE for a body that ends before its last event, unless requireLast is false', async () => {
    const cut = body(['data: first\n\n', 'data: second\n\n'], { end: true });
    const seen: string[] = [];
    await expect(async () => {
      for await (const event of readServerSentEvents(cut.stream, { isLast: isDone })) seen.push(event.data);
    }).rejects.toMatchObject({ code: 'PROVIDER_BAD_RESPONSE', message: expect.stringContaining('ended before its last event') });
    expect(seen).toEqual(['first', 'second']);
    const lenient = body(['data: first\n\n'], { end: true });
    const events = [];
    for await (const event of readServerSentEvents(lenient.stream, { isLast: isDone, requireLast: false })) events.push(event.data);
    expect(events).toEqual(['first']);
  });

  it('cancels the body once the rest after the last event exceeds maxBytes', async () => {
    const { stream, state } = body(['data: [DONE]\n\n', 'x'.repeat(600), 'y'.repeat(600), 'never read'], { end: true });
    for await (const _event of readServerSentEvents(stream, { isLast: isDone, drain: { maxBytes: 1_000, maxMs: 60_000 } })) expect.unreachable();
    await until(() => state.cancelled);
    expect(state.reads).toBeLessThanOrEqual(4);
  });

  it('cancels the body when its end does not come within maxMs of the last event', async () => {
    const { stream, state } = body(['data: [DONE]\n\n'], { end: false });
    const started = performance.now();
    for await (const _event of readServerSentEvents(stream, { isLast: isDone, drain: { maxBytes: 1_000, maxMs: 50 } })) expect.unreachable();
    expect(state.cancelled).toBe(false);
    await until(() => state.cancelled);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('cancels the body at once on a break or a throw before the last event (a server still generating is stopped)', async () => {
    const broken = body(['data: 1\n\n', 'data: 2\n\n'], { end: false });
    for await (const _event of readServerSentEvents(broken.stream, { isLast: isDone })) break;
    expect(broken.state.cancelled).toBe(true);
    const thrown = body(['data: bad\n\n', 'rest'], { end: false });
    await expect(async () => {
      for await (const event of readServerSentEvents(thrown.stream, { isLast: isDone })) throw new Error(`cannot use ${event.data}`);
    }).rejects.toThrow('cannot use bad');
    expect(thrown.state.cancelled).toBe(true);
  });
});
