/**
 * Every text-mode error line ends with its code in parentheses — the CLI's
 * own `CLI_…` codes as well as `LOOP_`, `CONFIG_` and `PG_` ones — so the
 * README's error table can be looked up from any of them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { envelope } from './envelope-reply.ts';

const temp = mkdtempSync(join(tmpdir(), 'askloop-error-code-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

async function firstLine(args: string[]): Promise<string> {
  const io = captureIo({ cwd: temp });
  await main(args, io);
  return io.err.split('\n')[0]!;
}

describe('text-mode errors end with their code', () => {
  it('CLI_SCRIPT_INVALID: a bad --script file', async () => {
    writeFileSync(join(temp, 'bad.json'), '{"not": "an array"}');
    expect(await firstLine(['run', 'x', '--script', 'bad.json', '--db', 'a.db'])).toMatch(/ \(CLI_SCRIPT_INVALID\)$/);
  });

  it('CLI_FILE_UNREADABLE: no sessions database', async () => {
    expect(await firstLine(['resume', 'abcd', '--db', 'missing.db'])).toMatch(/ \(CLI_FILE_UNREADABLE\)$/);
  });

  it('CLI_SESSION_ENDED: resume of an ended session', async () => {
    writeFileSync(join(temp, 'done.json'), JSON.stringify([envelope('emit "<<<LOOP:DONE>>> hi"')]));
    const io = captureIo({ cwd: temp });
    expect(await main(['run', 'x', '--script', 'done.json', '--db', 'ended.db', '--json'], io)).toBe(0);
    const { sid } = JSON.parse(io.out) as { sid: string };
    expect(await firstLine(['resume', sid, '--db', 'ended.db'])).toMatch(/ \(CLI_SESSION_ENDED\)$/);
  });

  it('CLI_USAGE: an unknown option, an unknown command', async () => {
    expect(await firstLine(['run', 'x', '--nope'])).toMatch(/ \(CLI_USAGE\)$/);
    expect(await firstLine(['nope'])).toMatch(/ \(CLI_USAGE\)$/);
  });

  it('LOOP_ codes as before', async () => {
    expect(await firstLine(['show', 'abcd', '--db', 'ended.db'])).toMatch(/ \((LOOP|CLI)_[A-Z_]+\)$/);
  });
});
