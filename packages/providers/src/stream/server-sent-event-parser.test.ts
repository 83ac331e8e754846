import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ServerSentEventParser, type ServerSentEvent } from './server-sent-event-parser.ts';

const encoder = new TextEncoder();

/** Parses `text` delivered as the given byte chunks (cut at `cuts`, byte offsets), then ends the body. */
function parse(text: string | Uint8Array, cuts: readonly number[] = []): ServerSentEvent[] {
  const bytes = typeof text === 'string' ? encoder.encode(text) : text;
  const parser = new ServerSentEventParser();
  const events: ServerSentEvent[] = [];
  let start = 0;
  for (const cut of [...new Set(cuts)].filter((at) => at > 0 && at < bytes.length).sort((a, b) => a - b)) {
    events.push(...parser.push(bytes.subarray(start, cut)));
    start = cut;
  }
  events.push(...parser.push(bytes.subarray(start)), ...parser.end());
  return events;
}

describe('ServerSentEventParser', () => {
  it('reads data lines, event names and blank-line dispatch', () => {
    expect(parse('data: {"a":1}\n\nevent: response.done\ndata: x\n\n')).toEqual([
      { event: undefined, data: '{"a":1}' },
      { event: 'response.done', data: 'x' },
    ]);
  });

  it('joins several data lines with a newline and keeps an empty data line', () => {
    expect(parse('data: one\ndata:two\ndata\n\ndata:\n\n')).toEqual([
      { event: undefined, data: 'one\ntwo\n' },
      { event: undefined, data: '' },
    ]);
  });

  it('removes only one space after the colon', () => {
    expect(parse('data:  two spaces\n\n')).toEqual([{ event: undefined, data: ' two spaces' }]);
  });

  it('skips comments, id, retry and unknown fields, and does not dispatch an event without data', () => {
    expect(parse(': keep-alive\nid: 7\nretry: 10\nfoo: bar\n\nevent: ping\n\ndata: after\n\n')).toEqual([{ event: undefined, data: 'after' }]);
  });

  it('treats CRLF, LF and a lone CR as line ends, however the chunks fall', () => {
    const text = 'data: a\r\n\r\ndata: b\r\rdata: c\n\n';
    const expected = [{ event: undefined, data: 'a' }, { event: undefined, data: 'b' }, { event: undefined, data: 'c' }];
    for (let cut = 0; cut <= text.length; cut++) expect(parse(text, [cut])).toEqual(expected);
  });

  it('dispatches an event whose blank line is a CR at the very end of the body', () => {
    expect(parse('data: last\r\r')).toEqual([{ event: undefined, data: 'last' }]);
  });

  it('drops an event the body did not finish with a blank line', () => {
    expect(parse('data: complete\n\ndata: cut short\n')).toEqual([{ event: undefined, data: 'complete' }]);
    expect(parse('data: cut short')).toEqual([]);
  });

  it('drops a leading byte-order mark and decodes characters split across chunks', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode('data: héllo 🙂\n\n')]);
    for (let cut = 0; cut <= bytes.length; cut++) expect(parse(bytes, [cut])).toEqual([{ event: undefined, data: 'héllo 🙂' }]);
  });

  it('resets the event name after each dispatch; an empty name means message', () => {
    expect(parse('event: a\ndata: 1\n\ndata: 2\n\nevent:\ndata: 3\n\n')).toEqual([
      { event: 'a', data: '1' },
      { event: undefined, data: '2' },
      { event: undefined, data: '3' },
    ]);
  });

  // Texts without CR or LF (they would end the line) and without a leading space (the one space after a colon is dropped).
  const lineText = fc.string({ unit: 'grapheme', maxLength: 30 }).filter((text) => !/[\r\n]/.test(text) && !text.startsWith(' '));
  const eventArbitrary = fc.record({
    event: fc.option(lineText.filter((name) => name !== ''), { nil: undefined }),
    lines: fc.array(lineText, { minLength: 1, maxLength: 4 }),
  });

  it('reads back any events, written with any line ends and cut into any chunks (property)', () => {
    fc.assert(
      fc.property(
        fc.array(eventArbitrary, { maxLength: 8 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 12 }),
        (events, lineEnd, spaced, cuts) => {
          const text = events
            .map(({ event, lines }) =>
              [...(event === undefined ? [] : [`event:${spaced ? ' ' : ''}${event}`]), ...lines.map((line) => `data:${spaced ? ' ' : ''}${line}`), ''].join(lineEnd) + lineEnd,
            )
            .join('');
          const bytes = encoder.encode(text);
          const parsed = parse(bytes, cuts.map((cut) => cut % (bytes.length + 1)));
          expect(parsed).toEqual(events.map(({ event, lines }) => ({ event, data: lines.join('\n') })));
        },
      ),
      { numRuns: 300 },
    );
  });
});
