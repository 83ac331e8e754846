import { describe, expect, it } from 'vitest';
import { EnvelopeStreamParser } from './envelope-stream-parser.ts';

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
