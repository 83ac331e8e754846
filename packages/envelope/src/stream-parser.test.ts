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
