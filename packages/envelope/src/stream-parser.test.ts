import { describe, expect, it } from 'vitest';
import { EnvelopeStreamParser } from './envelope-stream-parser.ts';
import { MAX_ENVELOPE_BYTES } from './limits.ts';
import { parseEnvelope } from './parse-envelope.ts';

const text = '<<<NSENV:V4:START>>>\n<<<NSENV:V4:USERDATA>>>\n{"subject":"ü"}\n<<<NSENV:V4:ACTIONS>>>\ncommand\nendcommand\n<<<NSENV:V4:END>>>\n';

describe('EnvelopeStreamParser', () => {
  it('completes as soon as the END line is complete, before the stream ends', () => {
    const parser = new EnvelopeStreamParser();
    expect(parser.push(text.slice(0, -1))).toBe('pending');
    expect(parser.push('\nthe model keeps talking')).toBe('complete');
    expect(parser.result?.envelope.actions).toBe('command\nendcommand');
    expect(parser.push('more')).toBe('complete');
    expect(parser.end()).toBe(parser.result);
  });

  it('fails on the first line without waiting for the rest', () => {
    const parser = new EnvelopeStreamParser();
    expect(() => parser.push('```\n')).toThrow(expect.objectContaining({ code: 'ERR_ENV_MARKERS_INVALID', line: 1 }));
    expect(() => parser.push('<<<NSENV:V4:START>>>\n')).toThrow(expect.objectContaining({ code: 'ERR_ENV_MARKERS_INVALID' }));
  });

  // Review: line 1 of only white space, or START with white space after it, stayed pending past the limit.
  it.each([['white space alone', ''], ['START, then white space', '<<<NSENV:V4:START>>>']])('fails on a first line that may still be START once it is over 1 MiB: %s', (_name, head) => {
    const parser = new EnvelopeStreamParser();
    expect(parser.push(head)).toBe('pending');
    const piece = ' '.repeat(64 * 1024);
    let pushed = head.length;
    let error: unknown;
    try {
      while (pushed <= 2 * MAX_ENVELOPE_BYTES) {
        expect(parser.push(piece)).toBe('pending');
        pushed += piece.length;
      }
    } catch (caught) {
      error = caught;
    }
    // The one-shot parse of any reply that starts so says the same.
    expect(error).toMatchObject({ code: 'ERR_ENV_SIZE', line: 1, message: 'the envelope is larger than 1048576 bytes (1 MiB) at line 1; shorten it' });
    expect(() => parseEnvelope(`${head}${' '.repeat(MAX_ENVELOPE_BYTES)}${head === '' ? '<<<NSENV:V4:START>>>' : ''}\n${text.slice(text.indexOf('\n') + 1)}`)).toThrow(expect.objectContaining({ code: 'ERR_ENV_SIZE', line: 1 }));
    // At the first piece that took it over the limit, not later.
    expect(pushed).toBeLessThanOrEqual(MAX_ENVELOPE_BYTES);
    expect(pushed + piece.length).toBeGreaterThan(MAX_ENVELOPE_BYTES);
  });

  it('fails on a first line that cannot be START before its newline arrives, with the one-shot error', () => {
    const prose = 'Sure! Here is what I would do for this task, step by step, without any envelope at all: first';
    const parser = new EnvelopeStreamParser();
    expect(parser.push(prose.slice(0, 40))).toBe('pending'); // still shorter than the error shows
    let error: unknown;
    try {
      parser.push(prose.slice(40));
    } catch (caught) {
      error = caught;
    }
    let oneShot: unknown;
    try {
      parseEnvelope(`${prose} and more prose, never a newline`);
    } catch (caught) {
      oneShot = caught;
    }
    expect(error).toMatchObject({ code: 'ERR_ENV_MARKERS_INVALID', line: 1, message: (oneShot as Error).message });
    // Still pending while it may yet be START (white space, then a part of the marker).
    const maybe = new EnvelopeStreamParser();
    expect(maybe.push(' '.repeat(200) + '<<<NSENV:V4:STA')).toBe('pending');
    expect(maybe.push('RT>>>  ')).toBe('pending');
    expect(() => maybe.push('x')).toThrow(expect.objectContaining({ code: 'ERR_ENV_MARKERS_INVALID', line: 1 }));
    // Bytes without a newline: refused after the first chunk, not buffered on.
    const bytes = new EnvelopeStreamParser();
    expect(() => bytes.push(new Uint8Array(16_384).fill(0x78))).toThrow(expect.objectContaining({ code: 'ERR_ENV_MARKERS_INVALID' }));
  });

  // Review: a chunk that ended on a `\r` right after the 80 characters the error shows failed early with the
  // `\r` dropped as a line end's, so the error lacked the `…` the one-shot error of the longer line has.
  it('fails early on a wrong first line with the one-shot error when the chunk ends on a \\r', () => {
    const line = `${'x'.repeat(80)}\r`;
    let oneShot: unknown;
    try {
      parseEnvelope(`${line}more, then a newline\n`);
    } catch (caught) {
      oneShot = caught;
    }
    const parser = new EnvelopeStreamParser();
    let error: unknown;
    try {
      parser.push(line);
      parser.push('more, then a newline\n');
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: 'ERR_ENV_MARKERS_INVALID', line: 1, message: (oneShot as Error).message });
  });

  it('reassembles a multibyte character split across byte chunks', () => {
    const bytes = new TextEncoder().encode(text);
    const split = bytes.indexOf(0xc3) + 1;
    const parser = new EnvelopeStreamParser();
    parser.push(bytes.slice(0, split));
    parser.push(bytes.slice(split));
    expect(parser.end().envelope.userdata).toBe('{"subject":"ü"}');
  });

  it('gives the one-shot error when a chunk ends between the \\r and \\n of a line that fills the limit', () => {
    const head = `<<<NSENV:V4:START>>>\n<<<NSENV:V4:USERDATA>>>\n{"subject":"x","fields":{}}\n<<<NSENV:V4:SCRATCHPAD>>>\n${'a'.repeat(500_000)}\n<<<NSENV:V4:OUTPUT>>>\n${'a'.repeat(500_000)}\n<<<NSENV:V4:ACTIONS>>>\ncommand\n`;
    // The size counts the first line, then each line and its newline: pad the last ACTIONS line to exactly the limit.
    const [first, ...rest] = head.split('\n').slice(0, -1) as [string, ...string[]];
    const counted = rest.reduce((total, line) => total + line.length + 1, first.length);
    const pad = 'a'.repeat(MAX_ENVELOPE_BYTES - counted - 1);
    const whole = `${head}${pad}\r\n<<<NSENV:V4:END>>>\n`;
    const oneShot = (() => {
      try {
        parseEnvelope(whole);
        return 'parsed';
      } catch (error) {
        return (error as { code: string }).code;
      }
    })();
    const parser = new EnvelopeStreamParser();
    const streamed = (() => {
      try {
        parser.push(`${head}${pad}\r`);
        parser.push('\n<<<NSENV:V4:END>>>\n');
        parser.end();
        return 'parsed';
      } catch (error) {
        return (error as { code: string }).code;
      }
    })();
    expect(streamed).toBe(oneShot);
  });

  it('fails a stream that crosses the size limit before END arrives', () => {
    const parser = new EnvelopeStreamParser();
    parser.push('<<<NSENV:V4:START>>>\n<<<NSENV:V4:USERDATA>>>\n');
    const line = `${'x'.repeat(1023)}\n`;
    let error: unknown;
    try {
      for (let count = 0; count < 600; count += 1) parser.push(line);
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: 'ERR_ENV_SIZE', line: 515 });
  });
});
