/**
 * `askloop run` with a config file: a third party's plugin package (its
 * provider and tool pack), installed next to askloop.config.yaml, runs an
 * agent the config defines — in a real process, with Node's own module
 * loader — and the session lands in the config's store, where `askloop
 * sessions` finds it. Plus the live progress on a terminal.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { spawnCli } from './spawn-cli.ts';
import { pluginProject, tempFolder } from './temp-folder.ts';

const PLUGIN = fileURLToPath(new URL('./fixtures/plugin-project/askloop-plugin-acme', import.meta.url));
const temp = tempFolder('run-config');

const CONFIG = `plugins:
  - askloop-plugin-acme
store:
  path: sessions.db
models:
  default: acme:greeter
agents:
  greeter:
    policy:
      allow: ["tool.acme.*"]
    ceilings:
      maxTurns: 2
`;

const project = (name: string): string => pluginProject(temp, name, CONFIG, PLUGIN);

describe('askloop run with askloop.config.yaml', () => {
  it('runs --agent NAME on a plugin package’s provider and tool, and stores the session where the config says', async () => {
    const dir = project('spawned');
    const run = await spawnCli(['run', 'Ada', '--agent', 'greeter', '--json'], { cwd: dir, env: { XDG_DATA_HOME: join(temp, 'unused') } });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'DONE', result: 'Hello, Ada, from ACME!', turns: 1 });
    expect(run.code).toBe(0);
    const sessions = await spawnCli(['sessions', '--json'], { cwd: dir, env: { XDG_DATA_HOME: join(temp, 'unused') } });
    expect(JSON.parse(sessions.stdout)).toMatchObject([{ task: 'Ada', status: 'done', turns: 1 }]);
  });

  it('without --agent, runs a bare agent on the config’s models.default', async () => {
    const io = captureIo({ cwd: project('default-model') });
    expect(await main(['run', 'Ada', '--allow', 'tool.acme.*', '--json'], io)).toBe(0);
    expect(JSON.parse(io.out)).toMatchObject({ status: 'DONE', result: 'Hello, Ada, from ACME!', turns: 1 });
  });

  it('names the agents there are when --agent names none', async () => {
    const io = captureIo({ cwd: project('unknown') });
    expect(await main(['run', 'Ada', '--agent', 'nobody', '--json'], io)).toBe(1);
    expect(JSON.parse(io.out).error).toMatchObject({ code: 'LOOP_AGENT_NOT_FOUND', message: expect.stringContaining('(agents: greeter)') });
  });

  it('on a terminal, shows the live progress and the summary on standard error', async () => {
    const dir = project('terminal');
    let screen = '';
    const terminal = { isTTY: true, columns: 100, write: (text: string) => ((screen += text), true), cursorTo: () => true, moveCursor: () => true, clearLine: () => true };
    // (Assigned, not spread: the captured io's writers record into the object itself.)
    const io = Object.assign(captureIo({ cwd: dir }), { stderrTerminal: terminal as unknown as NodeJS.WriteStream, env: { NO_COLOR: '1' } });
    expect(await main(['run', 'Ada', '--agent', 'greeter'], io)).toBe(0);
    expect(io.out).toBe('Hello, Ada, from ACME!\n');
    const text = stripVTControlCharacters(screen);
    for (const part of ['agent greeter', 'turn 1', '1 │ command', 'tool.acme.Greet("Ada") → "Hello, Ada, from ACME!"', 'decision DONE', `stored in ${join(dir, 'sessions.db')}`]) expect(text).toContain(part);
    // NO_COLOR: the program is not coloured (the keyword colour is magenta).
    expect(screen).not.toContain('\u001b[35m');
  });
});
