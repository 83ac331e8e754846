/**
 * A command's `--help` is read to learn what it takes: every option its
 * Options part describes is one its Usage line names, and the options it
 * refuses are not described. Walkthrough: `replay --help` described
 * `--quiet` (text shared with `resume`) that its Usage line left out and that
 * changed nothing, and the `--config` of `resume`, `approve`, `deny` and
 * `replay` named "its agents (--agent NAME)", an option none of them takes.
 */
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/commands/index.ts';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';

/** The `--options` of `text`. */
const optionsIn = (text: string): Set<string> => new Set(text.match(/--[a-z][a-z0-9-]*/g) ?? []);

/** The tool options `[tool options]` stands for in a Usage line. */
const TOOL_OPTIONS = ['--allow', '--deny', '--grant', '--fs-root', '--http'];

async function helpOf(name: string): Promise<string> {
  const io = captureIo();
  expect(await main([...name.split(' '), '--help'], io)).toBe(0);
  return io.out;
}

describe('--help describes only what the command takes', () => {
  it.each(COMMANDS.map((entry) => entry.name))('askloop %s --help: each option described is in its Usage line', async (name) => {
    const help = await helpOf(name);
    const usageLine = help.slice(0, help.indexOf('\n\n'));
    const named = optionsIn(usageLine);
    if (usageLine.includes('[tool options]')) for (const option of TOOL_OPTIONS) named.add(option);
    const described = [...help.matchAll(/^ {2}(--[a-z][a-z0-9-]*)\s+(.*)$/gm)]
      // `--json` that the output already is, described as accepted and changing nothing, so a script may pass it everywhere.
      .filter(([, option, text]) => !(option === '--json' && text!.startsWith('accepted, and changes nothing')))
      .map(([, option]) => option!);
    expect(described.filter((option) => !named.has(option))).toEqual([]);
  });

  it.each(['resume', 'approve', 'deny', 'replay'])('askloop %s --help names no --agent: the session keeps its agent', async (name) => {
    expect(await helpOf(name)).not.toContain('--agent');
  });

  it('askloop replay refuses --quiet, which its help does not offer (it prints no progress to quieten)', async () => {
    const io = captureIo();
    expect(await main(['replay', 'abcd', '--quiet'], io)).toBe(2);
    expect(io.err).toContain("unknown option '--quiet'");
  });
});
