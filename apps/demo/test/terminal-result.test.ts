/**
 * The final result and the other model text a loop command prints (a HALT's
 * cause, a refusal) never reach a terminal raw: control characters are shown
 * escaped (`\x1b`) when standard output is a terminal, while a pipe gets the
 * result byte for byte and `--json` stays one JSON object.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo, type CapturedIo } from './capture-io.ts';
import { envelope } from './envelope-reply.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'askloop-terminal-result-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

// ESC [31m (red), OSC 0 (retitle the window) ended by BEL: raw, they would drive the terminal.
const HOSTILE = 'res \u001b[31mRED\u001b]0;pwned\u0007';
const ESCAPED = 'res \\x1b[31mRED\\x1b]0;pwned\\x07';

async function script(name: string, replies: string[]): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(replies));
  return path;
}

const doneScript = () => script('done.json', [envelope(`emit "<<<LOOP:DONE>>> res \\u001b[31mRED\\u001b]0;pwned\\u0007"`)]);

/** A captured io whose standard output (and, with `stderrTty`, standard error) is a terminal. */
function terminalIo(options: { stdoutTty: boolean; stderrTty?: boolean }): CapturedIo {
  const io = captureIo({ cwd: dir });
  io.env = { CI: '1', NO_COLOR: '1' };
  io.stdoutIsTerminal = options.stdoutTty;
  if (options.stderrTty === true) io.stderrTerminal = { write: (text: string) => ((io.err += text), true), columns: 120 } as unknown as NodeJS.WriteStream;
  return io;
}

describe('the final result on standard output', () => {
  it('is escaped when standard output is a terminal (plain lines on standard error)', async () => {
    const io = terminalIo({ stdoutTty: true });
    expect(await main(['run', 't', '--script', await doneScript(), '--db', 'a.db'], io)).toBe(0);
    expect(io.out).toBe(`${ESCAPED}\n`);
  });

  it('is escaped when both are terminals (the live progress)', async () => {
    const io = terminalIo({ stdoutTty: true, stderrTty: true });
    expect(await main(['run', 't', '--script', await doneScript(), '--db', 'b.db'], io)).toBe(0);
    expect(io.out).toBe(`${ESCAPED}\n`);
    expect(io.err).not.toMatch(/\u001b\]0;|\u0007/);
  });

  it('is byte for byte in a pipe, even when standard error is a terminal', async () => {
    const plain = terminalIo({ stdoutTty: false });
    expect(await main(['run', 't', '--script', await doneScript(), '--db', 'c.db'], plain)).toBe(0);
    expect(plain.out).toBe(`${HOSTILE}\n`);
    const live = terminalIo({ stdoutTty: false, stderrTty: true });
    expect(await main(['run', 't', '--script', await doneScript(), '--db', 'd.db'], live)).toBe(0);
    expect(live.out).toBe(`${HOSTILE}\n`);
  });

  it('stays one JSON object with --json, on a terminal or not', async () => {
    for (const stdoutTty of [true, false]) {
      const io = terminalIo({ stdoutTty });
      expect(await main(['run', 't', '--script', await doneScript(), '--db', 'e.db', '--json'], io)).toBe(0);
      expect(io.out.trimEnd().split('\n')).toHaveLength(1);
      expect(JSON.parse(io.out)).toMatchObject({ status: 'DONE', result: HOSTILE });
    }
  });
});

describe('other model text on standard error', () => {
  it("a HALT's cause quoting the model is escaped", async () => {
    const io = terminalIo({ stdoutTty: true });
    const fail = await script('fail.json', [envelope('fail "boom \\u001b]0;pwned\\u0007 \\u001b[2J"')]);
    expect(await main(['run', 't', '--script', fail, '--db', 'f.db', '--max-turns', '1'], io)).toBe(3);
    expect(io.err).toContain('cause: ');
    expect(io.err).not.toMatch(/[\u0007\u001b]/);
    expect(io.err).toContain('\\x1b]0;pwned\\x07');
  });
});
