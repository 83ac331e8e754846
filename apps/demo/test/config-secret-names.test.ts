/**
 * Which variables a config names as holding secrets (`configSecretNames`):
 * a `${NAME}` only where the CLI fills it in — an MCP server's `env` and
 * `headers` — but the system's ordinary variables (`HOME: ${HOME}`), and
 * every variable a plugin entry's options name (`tokenEnv:`). A `${NAME}`
 * anywhere else (an agent's instructions or description, a plugin's options
 * as text, a server's `args` naming what its own `env` sets) is text and
 * names none. Regression: every `${NAME}` written anywhere counted.
 */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/index.ts';
import { configSecretNames, filledVariables } from '../src/config/config-secret-names.ts';
import { isOrdinaryVariable } from '../src/config/ordinary-variables.ts';
import { parseMcpConfigText } from '../src/commands/mcp/parse-mcp-config-text.ts';

const CONFIG = `
plugins:
  - package: askloop-plugin-tracker
    options: { baseUrl: "http://127.0.0.1:8080", project: ops, tokenEnv: TRACKER_AUTH, note: "team \${TEAM_NAME}", nested: { apiKeyEnv: ACME_TEAM_KEY } }
agents:
  deployer:
    model: scripted:x
    description: "Deploys \${PROJECT_NAME}"
    instructions: "Files live under \${PROJECT_DIR}."
mcpServers:
  gh:
    command: sh
    args: ["-c", "exec server --mode \${SERVER_MODE}"]
    env:
      SERVER_MODE: fast
      GH_AUTH: "\${MY_SERVICE_CRED}"
      HOME: "\${HOME}"
      PATH: "\${PATH}"
      LANG: "\${LANG}"
      LC_ALL: "\${LC_ALL}"
      HTTPS_PROXY: "\${HTTPS_PROXY}"
  remote:
    url: https://mcp.example.com/mcp
    headers:
      Authorization: "Bearer \${REMOTE_CRED}"
      X-User: "\${USER}"
`;

describe('the variables a config names as holding secrets', () => {
  it('those filled into an MCP server (not the ordinary ones) and those plugin options name; no other ${NAME}', () => {
    const config = parseConfig(CONFIG, { file: '/project/askloop.config.yaml' });
    expect(configSecretNames(config, {}).sort()).toEqual(['ACME_TEAM_KEY', 'MY_SERVICE_CRED', 'REMOTE_CRED', 'TRACKER_AUTH']);
  });

  it('an --mcp-config file: the same rule', () => {
    const servers = parseMcpConfigText(JSON.stringify({ servers: { s: { command: 'sh', args: ['-c', 'run ${OWN}'], env: { OWN: 'x', AUTH: 'u:${FILE_LOGIN}', TERM: '${TERM}', TZ: '${TZ}' } } } }), 'mcp.json');
    expect(filledVariables(servers, {})).toEqual(['FILE_LOGIN']);
  });

  it('the ordinary variables: the system\'s own, in any case (Windows), and the locale settings; never one named like another', () => {
    for (const name of ['HOME', 'PATH', 'USER', 'LOGNAME', 'SHELL', 'TMPDIR', 'LANG', 'TERM', 'TZ', 'LC_ALL', 'LC_CTYPE', 'SystemRoot', 'USERPROFILE', 'https_proxy']) expect(isOrdinaryVariable(name, 'plain'), name).toBe(true);
    for (const name of ['HOME_TOKEN', 'MY_PATH', 'USER_PASSWORD', 'LC_', 'LANGUAGE_KEY', 'PROJECT_DIR', 'PWD']) expect(isOrdinaryVariable(name, 'plain'), name).toBe(false);
  });

  it('a proxy setting with credentials in its URL is no ordinary variable: with a scheme or without, a key as the user name, any case', () => {
    for (const value of ['http://proxy.corp:3128', 'proxy.corp:3128', 'localhost,.corp']) expect(isOrdinaryVariable('HTTPS_PROXY', value), value).toBe(true);
    for (const value of ['http://alice:pw12@proxy.corp:3128', 'alice:Sup3rS3cretPw@proxy.corp:3128', 'http://0123456789abcdef0123456789abcdef:@proxy.zyte.com:8011', 'socks5://alice:pa/ss@proxy:1080']) {
      for (const name of ['HTTP_PROXY', 'https_proxy', 'ALL_PROXY']) expect(isOrdinaryVariable(name, value), `${name}=${value}`).toBe(false);
    }
    const servers = parseMcpConfigText(JSON.stringify({ servers: { s: { command: 'x', env: { HTTPS_PROXY: '${HTTPS_PROXY}', http_proxy: '${http_proxy}', NO_PROXY: '${NO_PROXY}' } } } }), 'mcp.json');
    expect(filledVariables(servers, { HTTPS_PROXY: 'alice:Sup3rS3cretPw@proxy.corp:3128', http_proxy: 'http://proxy.corp:3128', NO_PROXY: 'localhost' })).toEqual(['HTTPS_PROXY']);
  });
});
