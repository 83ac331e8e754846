import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor, REDACTED } from './create-redactor.ts';

const key = 'sk-proj-ABCDEFGHIJKLMNOP1234';
const chunk = (content: string) => ({ id: 'chatcmpl-1', object: 'chat.completion.chunk', model: 'gpt-4.1', choices: [{ index: 0, delta: { content }, finish_reason: null }] });
const contents = (chunks: unknown): string => (chunks as ReturnType<typeof chunk>[]).map((item) => item.choices[0]!.delta.content).join('');

describe('a key split across the items of a list', () => {
  it('is scrubbed from every item it spans, the join reading as the redacted text', () => {
    // Before: no chunk held the whole key, so every piece stayed, and the chunks' texts joined gave the key back.
    const pieces = ['Your key is sk-p', 'roj-', 'ABCD', 'EFGHIJKLMNOP', '1234', ', keep it.'];
    const scrubbed = createRedactor([key]).value(pieces.map(chunk));
    expect(contents(scrubbed)).toBe(`Your key is ${REDACTED}, keep it.`);
    expect((scrubbed as ReturnType<typeof chunk>[]).map((item) => item.choices[0]!.delta.content)).toEqual(['Your key is [REDACTED]', '', '', '', '', ', keep it.']);
    expect(JSON.stringify(scrubbed)).not.toMatch(/roj-|ABCD|1234/);
  });

  it('is found across items of other kinds between them (a ping, an event without text)', () => {
    const events = [
      { type: 'content_block_delta', delta: { type: 'text_delta', text: `key: ${key.slice(0, 10)}` } },
      { type: 'ping' },
      { type: 'content_block_delta', delta: { type: 'thinking_delta', thinking: 'hm' } },
      { type: 'content_block_delta', delta: { type: 'text_delta', text: key.slice(10) } },
    ];
    const scrubbed = createRedactor([key]).value({ events }) as { events: typeof events };
    expect(JSON.stringify(scrubbed)).not.toContain(key.slice(0, 10));
    expect(JSON.stringify(scrubbed)).not.toContain(key.slice(10));
    expect(scrubbed.events[0]!.delta).toEqual({ type: 'text_delta', text: `key: ${REDACTED}` });
  });

  it('leaves a list without a split key as it was', () => {
    const pieces = ['sk-proj-', 'is how such keys begin; ', 'ABCD is not one'];
    expect(createRedactor([key]).value(pieces.map(chunk))).toEqual(pieces.map(chunk));
  });

  it('never lets a piece of a key through, however it is split', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9_-]{8,40}$/), fc.stringMatching(/^[ a-z0-9.,!]{0,20}$/), fc.stringMatching(/^[ a-z0-9.,!]{0,20}$/), fc.array(fc.nat(), { maxLength: 12 }), (secret, before, after, cuts) => {
        const text = `${before}${secret}${after}`;
        const at = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        const pieces = [0, ...at].map((start, index) => text.slice(start, [...at, text.length][index]));
        const scrubbed = createRedactor([secret]).value(pieces.map(chunk));
        expect(contents(scrubbed).includes(secret)).toBe(false);
        expect(contents(scrubbed)).toBe(createRedactor([secret]).secretsOnly(text));
      }),
    );
  });
});
