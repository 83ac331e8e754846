/**
 * A proxy setting passed on to an MCP server (`HTTPS_PROXY: ${HTTPS_PROXY}`,
 * as docs/using-mcp-servers.md asks for) is one of the system's ordinary
 * variables only without credentials. Through the real CLI, with a real MCP
 * server and a scripted model whose program reads a file quoting the proxy
 * settings (the `fs` tool: no MCP server's own redaction on the way) and
 * writes one itself: a proxy URL holding a password without a scheme (as curl
 * takes it), a service's key as its user name, and a password under 8
 * characters are `[REDACTED]` whole in the result, the sessions file and what
 * `show` prints; a proxy without credentials keeps its value. Regression: the
 * proxy settings were exempt by name, "a password in a proxy URL is hidden
 * anyway", which holds for none of these three — each was printed and stored
 * in clear.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { envelope } from './envelope-reply.ts';
import { spawnCli } from './spawn-cli.ts';
import { tempFolder, writeFiles } from './temp-folder.ts';
import { fileBytes } from './sqlite-file-bytes.ts';

const FIXTURE_SERVER = fileURLToPath(new URL('./fixtures/mcp-fixture-server.ts', import.meta.url));
// The credentials, and what of each would show in clear if the proxy setting were ordinary.
const SCHEMELESS = 'proxyuser:Sup3rS3cretPw@proxy.corp:3128';
const KEY_AS_USER = 'http://0123456789abcdef0123456789abcdef:@proxy.zyte.com:8011';
const SHORT_PASSWORD = 'http://bob:pw12@proxy.corp:3128';
const LEAKS = ['Sup3rS3cretPw', '0123456789abcdef0123456789abcdef', 'pw12'];
// Without credentials: ordinary, kept.
const PLAIN = 'http://proxy.plain.corp:8080';
const ENV = { HTTPS_PROXY: SCHEMELESS, ALL_PROXY: KEY_AS_USER, HTTP_PROXY: SHORT_PASSWORD, no_proxy: 'localhost', http_proxy: PLAIN };

const folder = writeFiles(tempFolder('proxy-credential-secret'), {
  'askloop.config.yaml': [
    'store:\n  path: sessions.db',
    'mcpServers:\n  svc:',
    `    command: ${JSON.stringify(process.execPath)}`,
    `    args: [${JSON.stringify(FIXTURE_SERVER)}]`,
    '    env:\n      HTTPS_PROXY: ${HTTPS_PROXY}\n      ALL_PROXY: ${ALL_PROXY}\n      HTTP_PROXY: ${HTTP_PROXY}\n      NO_PROXY: ${no_proxy}\n      http_proxy: ${http_proxy}',
    '',
  ].join('\n'),
  // What a project's files may quote: an .npmrc, a shell profile.
  'ws/proxy.txt': `https-proxy=${SCHEMELESS}\nall-proxy=${KEY_AS_USER}\nhttp-proxy=${SHORT_PASSWORD}\nplain=${PLAIN}\n`,
  'replies.json': JSON.stringify([envelope(`emit "<<<LOOP:DONE>>> " + tool.fs.Read("/proxy.txt") + " / ${SCHEMELESS}"`)]),
});

const cli = (args: string[]) => spawnCli(args, { cwd: folder, env: ENV });

describe('a proxy setting passed on to an MCP server', () => {
  it('with credentials is a secret whole in the result, the sessions file and show; without (http_proxy), it is kept', async () => {
    const ran = await cli(['run', 'read the proxy settings', '--script', 'replies.json', '--fs-root', 'ws', '--allow', 'tool.fs.*', '--grant', 'fs:read:/**', '--json']);
    expect(ran.code, ran.stderr).toBe(0);
    const { sid, result } = JSON.parse(ran.stdout) as { sid: string; result: string };
    // The result is the marker's line; the program's whole output is in the sessions file and in show.
    expect(result).toBe('https-proxy=[REDACTED]');
    const stored = fileBytes(join(folder, 'sessions.db'));
    expect(stored).toContain(`all-proxy=[REDACTED]\\nhttp-proxy=[REDACTED]\\nplain=${PLAIN}\\n / [REDACTED]`);
    const shown = await cli(['show', sid, '--full']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(PLAIN);
    for (const leak of LEAKS) {
      expect(`${ran.stdout}${ran.stderr}`, leak).not.toContain(leak);
      expect(stored, leak).not.toContain(leak);
      expect(`${shown.stdout}${shown.stderr}`, leak).not.toContain(leak);
    }
  });

  it('with credentials in the task: refused, naming the variable, as a key is', async () => {
    const ran = await cli(['run', `use the proxy ${SCHEMELESS}`, '--script', 'replies.json', '--json']);
    expect(ran.code).toBe(2);
    const { error } = JSON.parse(ran.stdout) as { error: { code: string; message: string } };
    expect(error.code).toBe('CLI_OPTION_INVALID');
    expect(error.message).toContain('the task holds the value of HTTPS_PROXY');
    expect(`${ran.stdout}${ran.stderr}`).not.toContain('Sup3rS3cretPw');
  });
});
