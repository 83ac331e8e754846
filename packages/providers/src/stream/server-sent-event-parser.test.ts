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

  it('drops only the leading byte-order mark: a U+FEFF right after it is text, however the chunks fall', () => {
    // The second U+FEFF makes the first field's name `\uFEFFdata`, which is not `data`: only the second event is read.
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode('\uFEFFdata: ignored\n\ndata: read\n\n')]);
    for (let cut = 0; cut <= bytes.length; cut++) expect(parse(bytes, [cut])).toEqual([{ event: undefined, data: 'read' }]);
    for (let cut = 1; cut <= 6; cut++) expect(parse(bytes, [1, cut])).toEqual([{ event: undefined, data: 'read' }]);
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
  it('reads back any events, written with any mix of line ends, comments and cuts into chunks (property)', () => {
    const line = fc.record({ text: lineText, end: fc.constantFrom('\n', '\r\n', '\r'), spaced: fc.boolean(), comment: fc.option(lineText, { nil: undefined }) });
    const block = fc.record({ event: fc.option(line.filter(({ text }) => text !== ''), { nil: undefined }), lines: fc.array(line, { minLength: 1, maxLength: 4 }), blank: fc.constantFrom('\n', '\r\n', '\r') });
    fc.assert(
      fc.property(fc.boolean(), fc.array(block, { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 12 }), (bom, blocks, cuts) => {
        const field = (name: string, { text, end, spaced, comment }: { text: string; end: string; spaced: boolean; comment: string | undefined }): string =>
          `${comment === undefined ? '' : `:${comment}${end}`}${name}:${spaced ? ' ' : ''}${text}${end}`;
        // A CR then an LF is one line end (CRLF): an LF right after a CR is written as CRLF so it still ends a line.
        const pieces = blocks.flatMap(({ event, lines, blank }) => [...(event === undefined ? [] : [field('event', event)]), ...lines.map((item) => field('data', item)), blank]);
        const text = pieces.reduce((joined, piece) => joined + (joined.endsWith('\r') && piece.startsWith('\n') ? `\r${piece}` : piece), bom ? '\uFEFF' : '');
        const bytes = encoder.encode(text);
        const parsed = parse(bytes, cuts.map((cut) => cut % (bytes.length + 1)));
        expect(parsed).toEqual(blocks.map(({ event, lines }) => ({ event: event?.text, data: lines.map((item) => item.text).join('\n') })));
      }),
      { numRuns: 400 },
    );
  });
});
