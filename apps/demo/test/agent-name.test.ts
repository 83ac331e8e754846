/**
 * `--agent NAME` says what it looked for: with no config file found, that
 * there is none to take a NAME from (not just "no such file"); with one, that
 * the NAME is not among its agents. Both are LOOP_AGENT_NOT_FOUND (exit 1),
 * the controller's code for an unknown agent name; a missing agent *file*
 * (a path) stays CLI_FILE_UNREADABLE (exit 2).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';

const temp = mkdtempSync(join(tmpdir(), 'askloop-agent-name-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
const project = join(temp, 'project');
const elsewhere = join(temp, 'elsewhere');
mkdirSync(project);
mkdirSync(elsewhere);
writeFileSync(join(project, 'askloop.config.yaml'), 'agents:\n  hello:\n    model: scripted:script\n');

async function cli(args: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo({ cwd });
  const code = await main(args, io);
  return { code, out: io.out, err: io.err };
}

describe('--agent NAME', () => {
  it('with no config file found: LOOP_AGENT_NOT_FOUND saying none was found, and how to fix it', async () => {
    const text = await cli(['run', 'x', '--agent', 'hello', '--db', 's.db'], elsewhere);
    expect(text.code).toBe(1);
    expect(text.err).toBe(
      `askloop: --agent hello: no agent file 'hello' in ${elsewhere}, and no askloop.config.yaml there to take an agent NAME from; run from the folder of the config file, pass --config FILE, or give the path of an agent file (JSON or YAML) (LOOP_AGENT_NOT_FOUND)\n`,
    );
    const json = await cli(['run', 'x', '--agent', 'hello', '--db', 's.db', '--json'], elsewhere);
    expect(JSON.parse(json.out).error.code).toBe('LOOP_AGENT_NOT_FOUND');
  });

  it('with a config: LOOP_AGENT_NOT_FOUND naming the file and its agents', async () => {
    const result = await cli(['run', 'x', '--agent', 'helo', '--db', 's.db', '--json'], project);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.out).error).toMatchObject({ code: 'LOOP_AGENT_NOT_FOUND', file: join(project, 'askloop.config.yaml'), message: expect.stringContaining("no agent 'helo' in") });
    expect(JSON.parse(result.out).error.message).toContain("(agents: hello); use one of them or add 'helo' under agents:");
  });

  it('a missing agent file (a path) is still CLI_FILE_UNREADABLE, with or without a config', async () => {
    for (const cwd of [project, elsewhere]) {
      const result = await cli(['run', 'x', '--agent', 'agents/missing.yaml', '--db', 's.db'], cwd);
      expect(result.code).toBe(2);
      expect(result.err).toContain('cannot read: no such file (CLI_FILE_UNREADABLE)');
    }
  });
});
