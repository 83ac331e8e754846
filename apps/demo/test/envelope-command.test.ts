import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';

const ENVELOPE = '<<<NSENV:V4:START>>>\n<<<NSENV:V4:USERDATA>>>\n{"subject":"s","fields":{}}\n<<<NSENV:V4:ACTIONS>>>\ncommand\n  emit "hi"\nendcommand\n<<<NSENV:V4:END>>>\n';

describe('askloop envelope parse', () => {
  it('prints the envelope as JSON and exits 0', async () => {
    const io = captureIo({ stdin: ENVELOPE });
    expect(await main(['envelope', 'parse', '-'], io)).toBe(0);
    expect(JSON.parse(io.out)).toEqual({
      ok: true,
      envelope: { userdata: '{"subject":"s","fields":{}}', scratchpad: null, output: null, actions: 'command\n  emit "hi"\nendcommand' },
      lints: [],
    });
  });

  it('takes --json, which changes nothing (its output is JSON already), as envelope control does', async () => {
    const plain = captureIo({ stdin: ENVELOPE });
    const json = captureIo({ stdin: ENVELOPE });
    expect(await main(['envelope', 'parse', '-'], plain)).toBe(0);
    expect(await main(['envelope', 'parse', '-', '--json'], json)).toBe(0);
    expect(json.out).toBe(plain.out);
    const control = captureIo({ stdin: '<<<LOOP:DONE>>> 42\n' });
    expect(await main(['envelope', 'control', '--json', '-'], control)).toBe(0);
    expect(JSON.parse(control.out)).toMatchObject({ ok: true, done: true, result: '42' });
  });

  it('reads a file and prints a typed error with exit 1', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'askloop-'));
    await writeFile(join(directory, 'bad.txt'), `\n${ENVELOPE}`);
    const io = captureIo({ cwd: directory });
    expect(await main(['envelope', 'parse', 'bad.txt'], io)).toBe(1);
    expect(JSON.parse(io.out)).toMatchObject({ ok: false, error: { code: 'ERR_ENV_MARKERS_INVALID', line: 1 } });
  });

  it('recovers a fenced reply with --extract and says so in a lint; without it, the error says --extract would', async () => {
    const reply = `Here it is:\n\`\`\`\n${ENVELOPE}\`\`\`\n`;
    const io = captureIo({ stdin: reply });
    expect(await main(['envelope', 'parse', '--extract'], io)).toBe(0);
    expect(JSON.parse(io.out).lints.map((lint: { code: string }) => lint.code)).toEqual(['LINT_RECOVERED_FENCE']);
    const strict = captureIo({ stdin: reply });
    expect(await main(['envelope', 'parse'], strict)).toBe(1);
    expect(JSON.parse(strict.out)).toMatchObject({ ok: false, error: { code: 'ERR_ENV_MARKERS_INVALID', message: expect.stringMatching(/; --extract recovers this reply \(LINT_RECOVERED_FENCE: the envelope was wrapped in a markdown fence \(START at line 3\); send the envelope bare\)$/) } });
    // A bare command block is recovered too, and named as such (it is not a fence).
    const bare = captureIo({ stdin: 'command\n  emit "hi"\nendcommand\n' });
    expect(await main(['envelope', 'parse'], bare)).toBe(1);
    expect(JSON.parse(bare.out).error.message).toMatch(/; --extract recovers this reply \(LINT_RECOVERED_BARE_COMMAND: the reply had no envelope, only a command … endcommand block; it was used as ACTIONS\)$/);
    // Input that no extraction recovers gets no such hint.
    const hopeless = captureIo({ stdin: 'no envelope here\n' });
    expect(await main(['envelope', 'parse'], hopeless)).toBe(1);
    expect(JSON.parse(hopeless.out).error.message).not.toContain('--extract');
  });

  it('exits 2 on a usage error and prints the one wrong thing and a hint, not the help', async () => {
    const io = captureIo();
    expect(await main(['envelope', 'parse', '--nope'], io)).toBe(2);
    // parse prints JSON, so the error is the JSON envelope; the hint goes to standard error.
    expect(JSON.parse(io.out)).toEqual({ ok: false, error: { code: 'CLI_USAGE', message: expect.stringContaining("unknown option '--nope'") } });
    expect(io.err).toBe("Run 'askloop envelope parse --help' for usage.\n");
  });
});

describe('askloop envelope compose', () => {
  it('writes back the text that parse read', async () => {
    const parsed = captureIo({ stdin: ENVELOPE });
    await main(['envelope', 'parse'], parsed);
    const io = captureIo({ stdin: JSON.stringify(JSON.parse(parsed.out).envelope) });
    expect(await main(['envelope', 'compose', '-'], io)).toBe(0);
    expect(io.out).toBe(ENVELOPE);
  });

  it("takes parse's whole output, so parse | compose round-trips", async () => {
    const parsed = captureIo({ stdin: ENVELOPE });
    await main(['envelope', 'parse'], parsed);
    const io = captureIo({ stdin: parsed.out });
    expect(await main(['envelope', 'compose', '-'], io)).toBe(0);
    expect(io.out).toBe(ENVELOPE);
  });

  it('exits 1 (CLI_INPUT_INVALID) when the input is not an envelope object', async () => {
    const io = captureIo({ stdin: '{"userdata": 1}' });
    expect(await main(['envelope', 'compose'], io)).toBe(1);
    expect(JSON.parse(io.out).error).toMatchObject({ code: 'CLI_INPUT_INVALID', file: '<stdin>' });
    // Read and wrong is not a usage error: no pointer to --help.
    expect(io.err).toBe('');
  });

  it('exits 1 with the line and column of input that is not JSON (when V8 names them)', async () => {
    const io = captureIo({ stdin: '{"userdata": "{}",\n  , }' });
    expect(await main(['envelope', 'compose'], io)).toBe(1);
    expect(JSON.parse(io.out).error).toMatchObject({ code: 'CLI_INPUT_INVALID', file: '<stdin>', line: 2, column: 3, message: expect.stringMatching(/^not JSON: /) });
  });

  it('exits 1 with a codec error for an empty ACTIONS', async () => {
    const io = captureIo({ stdin: '{"userdata":"{}","actions":""}' });
    expect(await main(['envelope', 'compose'], io)).toBe(1);
    expect(JSON.parse(io.out).error.code).toBe('ERR_ENV_SECTION_MISSING');
  });
});

describe('askloop envelope digest', () => {
  it('prints the reference vector', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'askloop-'));
    await writeFile(join(directory, 'out.txt'), 'line 1\nline 2');
    await writeFile(join(directory, 'scr.txt'), 'note 1');
    const io = captureIo({ cwd: directory });
    expect(await main(['envelope', 'digest', '--output', 'out.txt', '--scratchpad', 'scr.txt'], io)).toBe(0);
    expect(io.out).toBe('2d449d4543db71b14869c0ae954933e4edb8e65024a7da22946c37a8af14903a\n');
  });
});

describe('askloop envelope control', () => {
  it('finds the DONE marker and the final result', async () => {
    const io = captureIo({ stdin: 'working\n<<<LOOP:DONE>>> 42\n' });
    expect(await main(['envelope', 'control'], io)).toBe(0);
    expect(JSON.parse(io.out)).toMatchObject({ done: true, result: '42' });
  });

  it('applies v1 precedence', async () => {
    const io = captureIo({ stdin: '{"loop":"continue"}\n[[loop:abort:reason=policy]]\n' });
    expect(await main(['envelope', 'control', '--dialect', 'v1'], io)).toBe(0);
    expect(JSON.parse(io.out)).toMatchObject({ signal: 'abort', shouldContinue: false });
  });
});

describe('askloop', () => {
  it('--help lists every command', async () => {
    const io = captureIo();
    expect(await main(['--help'], io)).toBe(0);
    for (const command of ['demo', 'envelope parse', 'envelope compose', 'envelope digest']) expect(io.out).toContain(command);
  });

  it('envelope --help lists the group', async () => {
    const io = captureIo();
    expect(await main(['envelope', '--help'], io)).toBe(0);
    expect(io.out).toContain('parse');
  });

  it('exits 2 on an unknown command', async () => {
    const io = captureIo();
    expect(await main(['nope'], io)).toBe(2);
    expect(io.err).toContain("unknown command 'nope'");
  });

});

describe('input decoding', () => {
  it('gives the same digest for a file and for standard input, BOM included', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'askloop-'));
    await writeFile(join(directory, 'out.txt'), '\uFEFFline 1');
    const fromFile = captureIo({ cwd: directory });
    await main(['envelope', 'digest', '--output', 'out.txt'], fromFile);
    const fromStdin = captureIo({ stdin: '\uFEFFline 1' });
    await main(['envelope', 'digest', '--output', '-'], fromStdin);
    expect(fromStdin.out).toBe(fromFile.out);
  });

  it('rejects invalid UTF-8 with the same typed error, file and offset in every command', async () => {
    const bad = new Uint8Array([0x61, 0x0a, 0x62, 0xff, 0x0a]);
    for (const args of [['envelope', 'parse'], ['envelope', 'parse', '--extract'], ['envelope', 'compose'], ['envelope', 'control'], ['ns', 'check', '-', '--json'], ['ns', 'run', '-', '--json']]) {
      const io = captureIo({ stdin: bad });
      expect(await main(args, io), args.join(' ')).toBe(1);
      expect(JSON.parse(io.out), args.join(' ')).toEqual({
        ok: false,
        error: { code: 'CLI_INPUT_ENCODING', message: 'not valid UTF-8: invalid byte 0xff at byte offset 3 (line 2, column 2)', file: '<stdin>', line: 2, column: 2 },
      });
    }
    for (const args of [['envelope', 'digest', '--output', '-'], ['ns', 'check', '-'], ['ns', 'run', '-']]) {
      const io = captureIo({ stdin: bad });
      expect(await main(args, io), args.join(' ')).toBe(1);
      expect(io.err).toBe('askloop: <stdin>:2:2: not valid UTF-8: invalid byte 0xff at byte offset 3 (line 2, column 2) (CLI_INPUT_ENCODING)\n');
    }
  });
});
