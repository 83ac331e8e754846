/**
 * The root README's "In 20 seconds" example is run as shown: the replies file
 * it prints, `askloop run "…" --script replies.json`, and the lines it says
 * the command prints (the session id aside).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnCli } from './spawn-cli.ts';

const README = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8');
const temp = mkdtempSync(join(tmpdir(), 'askloop-readme-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** The example's shell session: the lines of the first sh block after the heading. */
function exampleLines(): string[] {
  const section = README.slice(README.indexOf('## In 20 seconds'));
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  if (block === null) throw new Error('the README has no sh block under "In 20 seconds"');
  return block[1]!.split('\n');
}

describe('the README example', () => {
  it('runs as shown and prints what the README says', async () => {
    const lines = exampleLines();
    const replies = lines[lines.indexOf('$ cat replies.json') + 1]!;
    expect(Array.isArray(JSON.parse(replies))).toBe(true);
    writeFileSync(join(temp, 'replies.json'), replies);
    const runAt = lines.findIndex((line) => line.startsWith('$ askloop run') && line.includes('--script'));
    const command = lines[runAt]!;
    const task = /"([^"]+)"/.exec(command)![1]!;
    const shown = lines.slice(runAt + 1, lines.findIndex((line, index) => index > runAt && line.startsWith('$')));

    const result = await spawnCli(['run', task, '--script', 'replies.json', '--db', join(temp, 'sessions.db')], { cwd: temp });

    expect(result.code).toBe(0);
    const printed = `${result.stderr}${result.stdout}`.split('\n').filter((line) => line !== '');
    expect(printed.map((line) => line.replace(/session [0-9a-f-]+\)/, 'session a82a2ec5-…)'))).toEqual(shown.map((line) => line.replace(/session [^)]+\)/, 'session a82a2ec5-…)')));
  });
});
