/**
 * A secret the config names only by reference — `${MY_SERVICE_CRED}` in an
 * MCP server's env, `tokenEnv: TRACKER_AUTH` in a plugin entry, `${NAME}` in
 * an `--mcp-config` file — is a secret although its variable is not named
 * like a key. Through the real CLI, with a real MCP server and a loopback
 * tracker that echo the credential they were given, and a model that echoes
 * one: it is never in what `run`, `ns run`, `show` and the viewer's API print
 * or serve, nor in the sessions file. Regression: only variables named like
 * keys (`*_KEY`, `*_TOKEN`, …) were hidden, and a config's references only
 * when a plugin failed to load; and a model's echo of one was stored as it
 * came (only what was printed hid it).
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope } from './envelope-reply.ts';
import { spawnCli } from './spawn-cli.ts';
import { viewerAnswers as viewed } from './viewer-answers.ts';
import { pluginProject, tempFolder, writeFiles } from './temp-folder.ts';
import { fileBytes } from './sqlite-file-bytes.ts';

// Shaped like no known key: only the config's naming their variables can hide them.
const CRED = 'svc-cred-7Hq2Lm9Xz4Pw';
const TRACKER_SECRET = 'trk-auth-9Yb3Nc5Vd7Qe';
const FROM_FILE = 'mcp-file-4Rt6Ys8Uo0Ia';
const ENV = { MY_SERVICE_CRED: CRED, TRACKER_AUTH: TRACKER_SECRET, FILE_SERVER_LOGIN: FROM_FILE };
const FIXTURE_SERVER = fileURLToPath(new URL('./fixtures/mcp-fixture-server.ts', import.meta.url));
const TRACKER = fileURLToPath(new URL('./fixtures/plugin-project/askloop-plugin-tracker', import.meta.url));
const SECRETS = [CRED, TRACKER_SECRET, FROM_FILE];

/** A tracker on a loopback port that answers the token it was sent as the new issue's key. */
let tracker: Server;
let project = '';
const root = tempFolder('config-referenced-secrets');

beforeAll(async () => {
  tracker = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ key: `OPS-1 for ${String(request.headers.authorization ?? '').replace(/^Bearer /, '')}` }));
    });
  });
  await new Promise<void>((resolve) => tracker.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(tracker.address() as AddressInfo).port}`;
  const server = (auth: string) => `    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(FIXTURE_SERVER)}]\n    env:\n      SERVICE_AUTH: ${auth}\n`;
  project = pluginProject(
    root,
    'project',
    `store:\n  path: sessions.db\nplugins:\n  - package: askloop-plugin-tracker\n    options: { baseUrl: "${baseUrl}", project: ops, tokenEnv: TRACKER_AUTH }\nmcpServers:\n  svc:\n${server('${MY_SERVICE_CRED}')}`,
    TRACKER,
  );
  writeFiles(project, {
    // The tools quote the credentials; the program hands what they said to the next turn and to the result.
    'tools.json': JSON.stringify([envelope('emit tool.svc.echo_auth()', 'emit tool.tracker.Open("login")'), envelope('emit "<<<LOOP:DONE>>> " + tool.svc.echo_auth() + " / " + tool.tracker.Open("again")')]),
    // A model that echoes a credential it was never given: its reply is stored, and its program run, with the mark.
    'echo.json': JSON.stringify([envelope(`emit "<<<LOOP:DONE>>> the service takes ${CRED} and the tracker ${TRACKER_SECRET}"`)]),
    'file-server.json': JSON.stringify({ servers: { files: { command: process.execPath, args: [FIXTURE_SERVER], env: { SERVICE_AUTH: '${FILE_SERVER_LOGIN}' } } } }),
    'echo.ns': 'command\n  emit tool.svc.echo_auth()\n  emit tool.files.echo_auth()\n  emit tool.tracker.Open("from ns")\nendcommand\n',
  });
});
afterAll(() => new Promise<void>((resolve) => (tracker === undefined ? resolve() : tracker.close(() => resolve()))));

const cli = (args: string[]) => spawnCli(args, { cwd: project, env: ENV });

function expectNoSecret(text: string): void {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
}

/** `askloop view` over the project's store (`args` add --db), its API's answers for the list and each session. */
const viewerAnswers = (args: string[], sids: readonly string[]) => viewed(args, sids, { cwd: project, env: ENV });

describe('variables the config refers to hold secrets', () => {
  it('askloop run: what the tools quote is [REDACTED] in the next envelope, the result and the sessions file; show and the viewer serve neither', async () => {
    const ran = await cli(['run', 'log in to both', '--script', 'tools.json', '--allow', 'tool.svc.*', '--allow', 'tool.tracker.*', '--grant', 'mcp:call:svc', '--json']);
    expect(ran.code, ran.stderr).toBe(0);
    const result = JSON.parse(ran.stdout) as { status: string; result: string; sid: string };
    expect(result).toMatchObject({ status: 'DONE', result: 'logged in with [REDACTED] / OPS-1 for [REDACTED]' });
    expectNoSecret(`${ran.stdout}${ran.stderr}`);
    const stored = fileBytes(join(project, 'sessions.db'));
    expect(stored).toContain('logged in with [REDACTED]');
    expectNoSecret(stored);
    const shown = await cli(['show', result.sid, '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    expectNoSecret(`${shown.stdout}${shown.stderr}`);
    expectNoSecret(await viewerAnswers([], [result.sid]));
  });

  it('a model that echoes them: stored as [REDACTED], so run, show, sessions and the viewer print it so, with the config in use beside --db too', async () => {
    const ran = await cli(['run', 'say the credentials', '--script', 'echo.json', '--db', 'echo.db', '--json']);
    expect(ran.code, ran.stderr).toBe(0);
    const { sid, result } = JSON.parse(ran.stdout) as { sid: string; result: string };
    expect(result).toBe('the service takes [REDACTED] and the tracker [REDACTED]');
    expectNoSecret(`${ran.stdout}${ran.stderr}`);
    expectNoSecret(fileBytes(join(project, 'echo.db')));
    for (const args of [['show', sid, '--db', 'echo.db', '--json'], ['show', sid, '--db', 'echo.db', '--full'], ['sessions', '--db', 'echo.db', '--json']]) {
      const shown = await cli(args);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toContain(args[0] === 'sessions' ? sid : 'the service takes [REDACTED]');
      expectNoSecret(`${shown.stdout}${shown.stderr}`);
    }
    expectNoSecret(await viewerAnswers(['--db', 'echo.db'], [sid]));
  });

  it('askloop ns run --config --mcp-config: what the tools quote is [REDACTED], the --mcp-config file\'s ${NAME} too', async () => {
    const ran = await cli(['ns', 'run', 'echo.ns', '--config', 'askloop.config.yaml', '--mcp-config', 'file-server.json', '--allow', 'tool.svc.*', '--allow', 'tool.files.*', '--allow', 'tool.tracker.*', '--grant', 'mcp:call:svc', '--grant', 'mcp:call:files']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toBe('logged in with [REDACTED]\nlogged in with [REDACTED]\nOPS-1 for [REDACTED]\n');
    expectNoSecret(`${ran.stdout}${ran.stderr}`);
  });

  it('a task holding the value of a variable the config refers to is refused, naming the variable, before anything is stored', async () => {
    const ran = await cli(['run', `use ${CRED} to log in`, '--script', 'echo.json', '--db', 'refused.db', '--json']);
    expect(ran.code).toBe(2);
    expect(JSON.parse(ran.stdout).error).toMatchObject({ code: 'CLI_OPTION_INVALID', message: expect.stringContaining('the task holds the value of MY_SERVICE_CRED') });
    expectNoSecret(`${ran.stdout}${ran.stderr}`);
    expect(existsSync(join(project, 'refused.db'))).toBe(false);
  });
});
