/** `askloop init`: writes a config that loads, never overwrites without --force, and holds no key. */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/index.ts';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { spawnCli } from './spawn-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'askloop-init-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('askloop init', () => {
  it('writes askloop.config.yaml that loadConfig accepts', async () => {
    const io = captureIo({ cwd: dir });
    expect(await main(['init'], io)).toBe(0);
    expect(io.out).toContain('Wrote askloop.config.yaml');
    const config = await loadConfig(join(dir, 'askloop.config.yaml'));
    expect(Object.keys(config.agents)).toEqual(['hello']);
    expect(readFileSync(join(dir, 'askloop.config.yaml'), 'utf8')).not.toMatch(/sk-|apiKey:/);
  });

  it('refuses to overwrite a file unless --force', async () => {
    writeFileSync(join(dir, 'mine.yaml'), 'plugins: []\n');
    const io = captureIo({ cwd: dir });
    expect(await main(['init', 'mine.yaml', '--json'], io)).toBe(2);
    expect(JSON.parse(io.out)).toEqual({ ok: false, error: { code: 'CONFIG_EXISTS', message: expect.stringContaining('--force'), file: 'mine.yaml' } });
    expect(readFileSync(join(dir, 'mine.yaml'), 'utf8')).toBe('plugins: []\n');
    const text = captureIo({ cwd: dir });
    expect(await main(['init', 'mine.yaml'], text)).toBe(2);
    expect(text.err).toBe('askloop: mine.yaml: the file already exists; keep it, or pass --force to overwrite it (CONFIG_EXISTS)\n');
    const forced = captureIo({ cwd: dir });
    expect(await main(['init', 'mine.yaml', '--force', '--json'], forced)).toBe(0);
    expect(JSON.parse(forced.out)).toEqual({ ok: true, file: join(dir, 'mine.yaml') });
  });

  it('says a missing folder is missing (it printed Node\'s ENOENT with the call)', async () => {
    const io = captureIo({ cwd: dir });
    expect(await main(['init', 'sub/dir/x.yaml'], io)).toBe(2);
    expect(io.err).toBe(`askloop: sub/dir/x.yaml: cannot write it: the folder ${join(dir, 'sub', 'dir')} does not exist; create it first (mkdir -p) (CONFIG_UNREADABLE)\n`);
  });

  it('askloop run --agent NAME uses the agent of the config init wrote; run and replay use its store.path', async () => {
    const project = join(dir, 'project');
    mkdirSync(project);
    const env = { XDG_DATA_HOME: join(dir, 'xdg') };
    expect((await spawnCli(['init'], { cwd: project, env })).code).toBe(0);
    const reply = ['<<<NSENV:V4:START>>>', '<<<NSENV:V4:USERDATA>>>', '{}', '<<<NSENV:V4:ACTIONS>>>', 'command', '  emit "<<<LOOP:DONE>>> " + len(tool.str.Split(userdata["subject"], " "))', 'endcommand', '<<<NSENV:V4:END>>>'].join('\n');
    writeFileSync(join(project, 'replies.json'), JSON.stringify([reply]));
    const run = await spawnCli(['run', '--agent', 'hello', 'the quick brown fox', '--script', 'replies.json', '--json'], { cwd: project, env });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'DONE', result: '4' });
    const missing = await spawnCli(['run', '--agent', 'helo', 'x', '--script', 'replies.json', '--json'], { cwd: project, env });
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout).error).toMatchObject({ code: 'LOOP_AGENT_NOT_FOUND', message: expect.stringContaining('(agents: hello)') });
    // store.path: the run writes there, and replay finds the session there without --db.
    writeFileSync(join(project, 'askloop.config.yaml'), `${readFileSync(join(project, 'askloop.config.yaml'), 'utf8')}\nstore:\n  path: data/s.db\n`);
    const stored = await spawnCli(['run', '--agent', 'hello', 'one two', '--script', 'replies.json', '--json'], { cwd: project, env });
    expect(stored.code).toBe(0);
    expect(existsSync(join(project, 'data', 's.db'))).toBe(true);
    const replay = await spawnCli(['replay', JSON.parse(stored.stdout).sid, '--json'], { cwd: project, env });
    expect({ code: replay.code, matched: JSON.parse(replay.stdout).matched }).toEqual({ code: 0, matched: true });
  });
});
