/**
 * `askloop replay` prints the values of a divergence: a recorded OUTPUT is
 * stored text, so its control characters are escaped as everywhere else text
 * from a record reaches the terminal — the C1 and bidi controls too, which
 * JSON leaves raw.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { envelope } from './envelope-reply.ts';
import { tempFolder, writeFiles } from './temp-folder.ts';

const dir = tempFolder('replay-escape');

describe('askloop replay of a divergence', () => {
  it('escapes the control characters of the recorded and replayed values it prints', async () => {
    writeFiles(dir, { 'script.json': JSON.stringify([envelope('emit "<<<LOOP:DONE>>> hi"')]) });
    const run = captureIo({ cwd: dir });
    expect(await main(['run', 'hi', '--script', 'script.json', '--db', 's.db', '--json'], run)).toBe(0);
    const { sid } = JSON.parse(run.out) as { sid: string };
    // A record whose OUTPUT differs from what its program emits (its digest still that of the emitted text).
    const file = new DatabaseSync(join(dir, 's.db'));
    const { record } = file.prepare('SELECT record FROM controller_turns WHERE sid = ?').get(sid) as { record: string };
    const turn = JSON.parse(record) as { output: string };
    file.prepare('UPDATE controller_turns SET record = ? WHERE sid = ?').run(JSON.stringify({ ...turn, output: `${turn.output}\u202eevil\u009b2J\u001b[31m` }), sid);
    file.close();
    const replay = captureIo({ cwd: dir });
    expect(await main(['replay', sid, '--db', 's.db'], replay)).toBe(1);
    expect(replay.out).toContain('diverged at turn 1, output: recorded "<<<LOOP:DONE>>> hi\\n\\u202eevil\\x9b2J\\u001b[31m", replayed "<<<LOOP:DONE>>> hi\\n"');
    expect(replay.out).not.toMatch(/[\u0080-\u009f\u202a-\u202e]/);
  });
});
