/**
 * A `${NAME}` names a secret only where the CLI fills it in: an MCP server's
 * `env` and `headers`. Through the real CLI, with a real MCP server and a
 * scripted model whose program writes the values out: a variable an agent's
 * instructions mention (text for the model), one a server's `args` read from
 * the server's own `env`, and the system's own variables passed on in `env`
 * (`HOME: ${HOME}`, `LANG: ${LANG}`, `TERM: ${TERM}`) keep their values in the
 * result, the sessions file and what `show` prints; a credential the server's
 * `env` is handed is still `[REDACTED]` in all of them. Regression: every
 * `${NAME}` written anywhere in a file the CLI read counted, so the values of
 * the project an instruction named, of the locale and of the terminal became
 * `[REDACTED]` in every reply, hence in every program that ran.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { envelope } from './envelope-reply.ts';
import { spawnCli } from './spawn-cli.ts';
import { tempFolder, writeFiles } from './temp-folder.ts';
import { fileBytes } from './sqlite-file-bytes.ts';

// Shaped like no known key, in a variable not named like one: only the config's handing it to the server makes it a secret.
const CRED = 'svc-cred-7Hq2Lm9Xz4Pw';
// Ordinary values of 8 characters or more, none a bare path (a path was never hidden): each was hidden before.
const PROJECT = 'acme-webshop';
const PROJECT_DIR = '/home/alice/acme shop';
const MODE = 'blue-green-rollout';
const LOCALE = 'en_US.UTF-8';
const TERMINAL = 'xterm-256color';
const ENV = { MY_SERVICE_CRED: CRED, PROJECT_NAME: PROJECT, PROJECT_DIR, SERVER_MODE: MODE, LANG: LOCALE, TERM: TERMINAL, HOME: '/home/alice' };
const KEPT = [PROJECT, PROJECT_DIR, MODE, LOCALE, TERMINAL];
const FIXTURE_SERVER = fileURLToPath(new URL('./fixtures/mcp-fixture-server.ts', import.meta.url));

// What the program writes: the values as the agent's instructions and the server's env give them, and the credential
// as the server quotes it (echo_auth) and as the model writes it.
const SAID = `project ${PROJECT} in ${PROJECT_DIR}, mode ${MODE}, locale ${LOCALE} on ${TERMINAL}`;
const folder = writeFiles(tempFolder('filled-variable-secrets'), {
  'askloop.config.yaml': [
    'store:\n  path: sessions.db',
    'mcpServers:\n  svc:',
    `    command: ${JSON.stringify(process.execPath)}`,
    // The server's own SERVER_MODE, for its command line: the host's SERVER_MODE is never read.
    `    args: [${JSON.stringify(FIXTURE_SERVER)}, "--mode=\${SERVER_MODE}"]`,
    '    env:\n      SERVICE_AUTH: ${MY_SERVICE_CRED}\n      SERVER_MODE: fast\n      HOME: ${HOME}\n      LANG: ${LANG}\n      TERM: ${TERM}',
    '',
  ].join('\n'),
  'agent.yaml': 'name: deployer\ninstructions: "The project is ${PROJECT_NAME}; its files are under ${PROJECT_DIR}."\n',
  'replies.json': JSON.stringify([envelope(`emit "<<<LOOP:DONE>>> " + tool.svc.echo_auth() + " / ${CRED} / ${SAID}"`)]),
});

const cli = (args: string[]) => spawnCli(args, { cwd: folder, env: ENV });

describe('a ${NAME} counts as a secret only where it is filled in', () => {
  it('askloop run and show keep what instructions, args and the system variables name, and hide what the server env is handed', async () => {
    const ran = await cli(['run', 'deploy', '--agent', 'agent.yaml', '--script', 'replies.json', '--allow', 'tool.svc.*', '--grant', 'mcp:call:svc', '--json']);
    expect(ran.code, ran.stderr).toBe(0);
    const { sid, result } = JSON.parse(ran.stdout) as { sid: string; result: string };
    expect(result).toBe(`logged in with [REDACTED] / [REDACTED] / ${SAID}`);
    expect(`${ran.stdout}${ran.stderr}`).not.toContain(CRED);
    // The program stored as it ran: the values the model wrote, the credential as the mark.
    const stored = fileBytes(join(folder, 'sessions.db'));
    for (const value of KEPT) expect(stored).toContain(value);
    expect(stored).not.toContain(CRED);
    // A command that reads the session (its stored agent names PROJECT_NAME and PROJECT_DIR) prints them too.
    const shown = await cli(['show', sid, '--full']);
    expect(shown.code, shown.stderr).toBe(0);
    for (const value of KEPT) expect(shown.stdout).toContain(value);
    expect(`${shown.stdout}${shown.stderr}`).not.toContain(CRED);
  });
});
