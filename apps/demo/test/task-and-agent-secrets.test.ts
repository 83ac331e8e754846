/**
 * A key never gets into the model's requests or the sessions file through
 * what the user writes: a key written into an agent file is refused as one in
 * askloop.config.yaml is (CONFIG_SECRET, at its line), and a task holding the
 * value of a key-like variable of the environment is refused (named, never
 * shown). Regression: both were sent to the model and stored; only what the
 * CLI printed was redacted.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { envelope } from './envelope-reply.ts';

const dir = mkdtempSync(join(tmpdir(), 'askloop-task-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'replies.json'), JSON.stringify([envelope('emit "<<<LOOP:DONE>>> ok"')]));
const KEY = 'sk-test-abcdefghijklmnopqrstu';

describe('secrets the user writes', () => {
  it('a key in an agent file is refused at its line, before anything is stored', async () => {
    writeFileSync(join(dir, 'agent.yaml'), `name: a\ninstructions: "use ${KEY} for the API"\n`);
    const io = captureIo({ cwd: dir });
    expect(await main(['run', 'x', '--agent', 'agent.yaml', '--script', 'replies.json', '--db', 'a.db', '--json'], io)).toBe(1);
    expect(JSON.parse(io.out).error).toMatchObject({ code: 'CONFIG_SECRET', file: 'agent.yaml', line: 2 });
    expect(io.out + io.err).not.toContain(KEY);
    expect(readdirSync(dir)).not.toContain('a.db');
  });

  it('a task holding the value of a key-like variable is refused, naming the variable', async () => {
    const io = captureIo({ cwd: dir });
    io.env = { MY_SERVICE_TOKEN: 'zq81x7-my-real-secret-value' };
    expect(await main(['run', 'deploy with zq81x7-my-real-secret-value please', '--script', 'replies.json', '--db', 't.db', '--json'], io)).toBe(2);
    expect(JSON.parse(io.out).error).toMatchObject({ code: 'CLI_OPTION_INVALID', message: expect.stringContaining('the task holds the value of MY_SERVICE_TOKEN') });
    expect(io.out + io.err).not.toContain('zq81x7-my-real-secret-value');
    // A task without it runs.
    const plain = captureIo({ cwd: dir });
    plain.env = io.env;
    expect(await main(['run', 'deploy please', '--script', 'replies.json', '--db', 't.db'], plain)).toBe(0);
  });

  // Walkthrough: a note went into the next turn's system text ("Their note: …") and the sessions file.
  it.each(['approve', 'deny'])('%s --note holding the value of a key-like variable is refused, and the session still waits', async (action) => {
    writeFileSync(join(dir, 'await.json'), JSON.stringify([envelope('emit "[[loop:await:approval_id=A1]]"'), envelope('emit "[[loop:done]] shipped"')]));
    const run = captureIo({ cwd: dir });
    expect(await main(['run', 'ship', '--script', 'await.json', '--dialect', 'v1', '--db', `${action}.db`, '--json'], run)).toBe(4);
    const { sid } = JSON.parse(run.out) as { sid: string };
    const io = captureIo({ cwd: dir });
    io.env = { MY_SERVICE_TOKEN: 'zq81x7-my-real-secret-value' };
    expect(await main([action, sid, '--db', `${action}.db`, '--script', 'await.json', '--note', 'use zq81x7-my-real-secret-value', '--json'], io)).toBe(2);
    expect(JSON.parse(io.out).error).toMatchObject({ code: 'CLI_OPTION_INVALID', message: expect.stringContaining('--note holds the value of MY_SERVICE_TOKEN') });
    expect(io.out + io.err).not.toContain('zq81x7-my-real-secret-value');
    const shown = captureIo({ cwd: dir });
    expect(await main(['show', sid, '--db', `${action}.db`, '--json'], shown)).toBe(0);
    expect(JSON.parse(shown.out)).toMatchObject({ session: { status: 'paused' } });
  });
});
