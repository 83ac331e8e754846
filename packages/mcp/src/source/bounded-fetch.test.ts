import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundedFetch } from './bounded-fetch.ts';

const encoder = new TextEncoder();

/** A fetch answering with `chunks` under `type`, and the body as read through `boundedFetch(limit)`. */
async function readThrough(chunks: readonly string[], type: string, limit: number): Promise<{ text?: string; failed: boolean; told: number }> {
  let told = 0;
  const base = async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
          controller.close();
        },
      }),
      { headers: { 'content-type': type } },
    );
  const response = await boundedFetch(limit, () => (told += 1), base)('http://127.0.0.1/mcp');
  try {
    return { text: await response.text(), failed: false, told };
  } catch {
    return { failed: true, told };
  }
}

describe('boundedFetch', () => {
  it('passes a JSON body up to the limit, and fails one past it, telling once', async () => {
    expect(await readThrough(['{"a":', '"12345"}'], 'application/json', 13)).toEqual({ text: '{"a":"12345"}', failed: false, told: 0 });
    expect(await readThrough(['{"a":', '"12345"}', 'more', 'and more'], 'application/json; charset=utf-8', 12)).toEqual({ failed: true, told: 1 });
  });

  it('counts an event stream by event: many events past the limit in all pass, one event past it fails', async () => {
    const events = Array.from({ length: 50 }, (_, index) => `id: ${index}\ndata: ${'x'.repeat(20)}\n\n`);
    expect(await readThrough(events, 'text/event-stream', 40)).toMatchObject({ failed: false, told: 0 });
    expect(await readThrough([`data: ${'x'.repeat(30)}`, `${'y'.repeat(30)}\n\n`], 'text/event-stream', 40)).toEqual({ failed: true, told: 1 });
  });

  it("keeps the answer's URL and whether a redirect led there", async () => {
    const answer = new Response('{}', { headers: { 'content-type': 'application/json' } });
    Object.defineProperties(answer, { url: { value: 'http://127.0.0.1/moved' }, redirected: { value: true } });
    const response = await boundedFetch(100, () => undefined, async () => answer)('http://127.0.0.1/mcp');
    expect({ url: response.url, redirected: response.redirected, text: await response.text() }).toEqual({ url: 'http://127.0.0.1/moved', redirected: true, text: '{}' });
  });

  it('passes statuses that carry no body as they are', async () => {
    const response = await boundedFetch(1, () => undefined, async () => new Response(null, { status: 204 }))('http://127.0.0.1/mcp');
    expect(response.status).toBe(204);
  });

  it('reads an event stream split anywhere, with LF, CRLF or CR line ends, as the same events', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 8 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.array(fc.integer({ min: 1, max: 200 }), { maxLength: 10 }),
        fc.integer({ min: 1, max: 40 }),
        async (sizes, end, cuts, limit) => {
          const text = sizes.map((size) => `data: ${'x'.repeat(size)}${end}${end}`).join('');
          const chunks: string[] = [];
          let at = 0;
          for (const cut of [...cuts].sort((a, b) => a - b)) {
            if (cut <= at || cut >= text.length) continue;
            chunks.push(text.slice(at, cut));
            at = cut;
          }
          chunks.push(text.slice(at));
          // An event's bytes are its line: 'data: ' and its text.
          const largest = Math.max(...sizes.map((size) => 6 + size));
          const read = await readThrough(chunks, 'text/event-stream', limit);
          expect(read.failed).toBe(largest > limit);
          if (!read.failed) expect(read.text).toBe(text);
        },
      ),
      { numRuns: 200 },
    );
  });
});
