/**
 * `askloop replay` without the tool options the session ran with: the
 * divergence comes with the replayed turn's failure and what to pass.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
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
    // The run recorded its options with the session: the command to paste, as resume and approve print it.
    const pasted = /the replayed turn failed: SCRIPT_TOOL_[A-Z_]+: .*replay with the tool options the session ran with: askloop (replay [^;]+); a tool an MCP server added while the session ran \(its list changed\) is not there until the server adds it again/.exec(text.stdout)?.[1];
    expect(pasted).toBe(`replay ${sid} --db ${db} --fs-root ${root}`);
    const again = await spawnCli(pasted!.split(' '));
    expect({ code: again.code, stdout: again.stdout }).toEqual({ code: 0, stdout: `replay of ${sid}: matched (1 turn)\n` });
    const json = await spawnCli(['replay', sid, '--db', db, '--json']);
    expect(JSON.parse(json.stdout).divergence.replayedFailure).toMatchObject({ code: expect.stringMatching(/^SCRIPT_TOOL_/) });
    // A session whose run recorded none (a sessions file written before, or PostgreSQL): the options to look for.
    const file = new DatabaseSync(db);
    file.exec('DELETE FROM askloop_cli_continue');
    file.close();
    const unrecorded = await spawnCli(['replay', sid, '--db', db]);
    expect(unrecorded.stdout).toContain('replay with the tool options the session ran with (--fs-root, --mcp-config, --config); a tool an MCP server');
  });
});
