/**
 * A session whose agent holds a known secret in what it IS (a grant, a
 * policy pattern) is refused by the controller (`LOOP_AGENT_INVALID` naming
 * the field). Through the real CLI, with secrets too plain to be keys: the
 * error names the environment variable whose value it is — one named like a
 * key, one the config hands to an MCP server — and what to do, never the
 * value, and gives no advice meant for a library user (`secrets()`), in
 * `--json` and on standard error. Regression: the CLI printed the library's
 * words ("use a longer one, or leave it out of secrets()"), naming no variable.
 * The variable named is the one whose secret the field the controller names
 * holds — a URL's password too — never one found in another field.
 * Regression: the first variable found anywhere in the agent was named for
 * the field, and a URL's password got the library's words.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { envelope } from './envelope-reply.ts';
import { spawnCli } from './spawn-cli.ts';
import { tempFolder, writeFiles } from './temp-folder.ts';

const FIXTURE_SERVER = fileURLToPath(new URL('./fixtures/mcp-fixture-server.ts', import.meta.url));
const root = tempFolder('secret-in-agent-hint');
const REPLIES = { 'replies.json': JSON.stringify([envelope('emit "<<<LOOP:DONE>>> ok"')]) };
// No config: only the name makes SERVICE_TOKEN a secret.
const bare = writeFiles(`${root}/bare`, REPLIES);
// A config whose MCP server is handed REPORT_ROLE.
const project = writeFiles(`${root}/project`, {
  ...REPLIES,
  'askloop.config.yaml': `store:\n  path: sessions.db\nmcpServers:\n  svc:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(FIXTURE_SERVER)}]\n    env:\n      SERVICE_AUTH: \${REPORT_ROLE}\n`,
});

describe('a known secret in what the agent is: the CLI names its variable', () => {
  it('a variable named like a key whose value is a word of a grant: named, with what to do, in --json', async () => {
    const ran = await spawnCli(['run', 'list', '--script', 'replies.json', '--grant', 'fs:read:/workspace/**', '--db', 'a.db', '--json'], { cwd: bare, env: { SERVICE_TOKEN: 'workspace' } });
    expect(ran.code, ran.stderr).toBe(1);
    const { error } = JSON.parse(ran.stdout) as { error: { code: string; message: string } };
    expect(error.code).toBe('LOOP_AGENT_INVALID');
    expect(error.message).toBe(
      "agent 'cli': policy.grants[0] holds the value of the environment variable SERVICE_TOKEN, a secret to askloop because its name is like a key's (…_KEY, …_TOKEN, …_SECRET, …_PASSWORD); the sessions file would keep [REDACTED] there, so the session would run another agent, and nothing was stored. The value is short or plain enough to be an ordinary word of the agent: give SERVICE_TOKEN a longer, unguessable value (a real key is one), or leave it unset for this command",
    );
    expect(error.message).not.toContain('secrets()');
    expect(`${ran.stdout}${ran.stderr}`).not.toContain('workspace');
  });

  it('a variable the config hands to an MCP server, in a grant: named, with what to do, on standard error', async () => {
    const ran = await spawnCli(['run', 'list', '--script', 'replies.json', '--grant', 'fs:read:/data/reporting/**'], { cwd: project, env: { REPORT_ROLE: 'reporting' } });
    expect(ran.code, ran.stderr).toBe(1);
    expect(ran.stderr).toBe(
      "askloop: agent 'cli': policy.grants[0] holds the value of the environment variable REPORT_ROLE, a secret to askloop because a file this command read hands it to an MCP server (${REPORT_ROLE} in a server's env or headers) or names it in a plugin's options (tokenEnv: REPORT_ROLE); the sessions file would keep [REDACTED] there, so the session would run another agent, and nothing was stored. The value is short or plain enough to be an ordinary word of the agent: give REPORT_ROLE a longer, unguessable value, or stop referring to it there (LOOP_AGENT_INVALID)\n",
    );
    expect(ran.stderr).not.toContain('secrets()');
    expect(`${ran.stdout}${ran.stderr}`).not.toContain('reporting');
  });

  it("the field's own secret, a URL's password, is named: never a variable whose value another field holds", async () => {
    const ran = await spawnCli(['run', 'list', '--script', 'replies.json', '--grant', 'fs:read:/reporting1/**', '--grant', 'fs:read:/workspace/**', '--db', 'b.db', '--json'], {
      cwd: bare,
      env: { DATABASE_URL: 'postgres://app:reporting1@db.internal/app', SERVICE_TOKEN: 'workspace' },
    });
    expect(ran.code, ran.stderr).toBe(1);
    const { error } = JSON.parse(ran.stdout) as { error: { code: string; message: string } };
    expect(error.code).toBe('LOOP_AGENT_INVALID');
    expect(error.message).toBe(
      "agent 'cli': policy.grants[0] holds the password of the URL in the environment variable DATABASE_URL, a secret to askloop because the password of any variable's URL is hidden; the sessions file would keep [REDACTED] there, so the session would run another agent, and nothing was stored. The password is short or plain enough to be an ordinary word of the agent: give that URL a longer, unguessable password",
    );
    expect(`${ran.stdout}${ran.stderr}`).not.toContain('SERVICE_TOKEN');
    expect(`${ran.stdout}${ran.stderr}`).not.toContain('reporting1');
  });
});
