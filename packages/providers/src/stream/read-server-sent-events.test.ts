import { describe, expect, it } from 'vitest';
import { readServerSentEvents } from './read-server-sent-events.ts';

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

describe('readServerSentEvents', () => {
  it('yields the events of the whole body and does not cancel it', async () => {
    const { stream, state } = body(['data: 1\n\nda', 'ta: 2\n\n'], { end: true });
    const events = [];
    for await (const event of readServerSentEvents(stream)) events.push(event.data);
    expect(events).toEqual(['1', '2']);
    expect(state.cancelled).toBe(false);
  });

  it('after a break, reads the rest of the body to its end instead of cancelling it (the connection stays reusable)', async () => {
    const { stream, state } = body(['data: first\n\n', 'data: [DONE]\n\n', 'tail the server wrote later'], { end: true });
    for await (const event of readServerSentEvents(stream)) if (event.data === '[DONE]') break;
    // The fourth pull is the one that finds the end: the tail was read, then the end, and nothing was cancelled.
    await until(() => state.reads >= 4);
    expect(state.cancelled).toBe(false);
  });

  it('cancels the body once the rest exceeds maxBytes', async () => {
    const { stream, state } = body(['data: [DONE]\n\n', 'x'.repeat(600), 'y'.repeat(600), 'never read'], { end: true });
    for await (const event of readServerSentEvents(stream, { maxBytes: 1_000, maxMs: 60_000 })) if (event.data === '[DONE]') break;
    await until(() => state.cancelled);
    expect(state.reads).toBeLessThanOrEqual(4);
  });

  it('cancels the body when its end does not come within maxMs', async () => {
    const { stream, state } = body(['data: [DONE]\n\n'], { end: false });
    const started = performance.now();
    for await (const event of readServerSentEvents(stream, { maxBytes: 1_000, maxMs: 50 })) if (event.data === '[DONE]') break;
    expect(state.cancelled).toBe(false);
    await until(() => state.cancelled);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('drains after a throw in the loop too', async () => {
    const { stream, state } = body(['data: bad\n\n', 'rest'], { end: true });
    await expect(async () => {
      for await (const event of readServerSentEvents(stream)) throw new Error(`cannot use ${event.data}`);
    }).rejects.toThrow('cannot use bad');
    await until(() => state.reads >= 3);
    expect(state.cancelled).toBe(false);
  });
});
