/**
 * `askloop replay` without the tool options the session ran with: the
 * divergence comes with the replayed turn's failure and what to pass.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli } from './spawn-cli.ts';
import { envelope } from './envelope-reply.ts';
import { tempFolder } from './temp-folder.ts';

const dir = tempFolder('replay');

describe('askloop replay without the tool options of the run', () => {
  it('names the replayed turn failure and the options to pass', async () => {
    const root = join(dir, 'root');
    await mkdir(root);
    await writeFile(join(root, 'note.txt'), 'hello');
    const script = join(dir, 'script.json');
    await writeFile(script, JSON.stringify([envelope('emit "<<<LOOP:DONE>>> " + tool.fs.Read("/note.txt")')]));
    const db = join(dir, 'fs.db');
    const run = await spawnCli(['run', 'read', '--script', script, '--db', db, '--fs-root', root, '--allow', 'tool.fs.*', '--grant', 'fs:read', '--json']);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'DONE', result: 'hello' });
    const { sid } = JSON.parse(run.stdout) as { sid: string };
    expect((await spawnCli(['replay', sid, '--db', db, '--fs-root', root])).code).toBe(0);

    const text = await spawnCli(['replay', sid, '--db', db]);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/diverged at turn 1/);
    expect(text.stdout).toMatch(/the replayed turn failed: SCRIPT_TOOL_[A-Z_]+: .*replay with the tool options the session ran with \(--fs-root, --mcp-config, --config\); a tool an MCP server added while the session ran \(its list changed\) is not there until the server adds it again/);
    const json = await spawnCli(['replay', sid, '--db', db, '--json']);
    expect(JSON.parse(json.stdout).divergence.replayedFailure).toMatchObject({ code: expect.stringMatching(/^SCRIPT_TOOL_/) });
  });
});
