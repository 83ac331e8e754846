import { describe, expect, it } from 'vitest';
import { parseMcpConfig } from './server-config.ts';

const fails = (value: unknown, text: string) => {
  expect(() => parseMcpConfig(value)).toThrowError(expect.objectContaining({ code: 'MCP_CONFIG_INVALID', message: expect.stringContaining(text) }));
};

/** The `configPath` of the error `parseMcpConfig` refuses `value` with. */
const pathOf = (value: unknown): unknown => {
  try {
    parseMcpConfig(value);
  } catch (error) {
    return (error as { configPath?: unknown }).configPath;
  }
  return expect.unreachable();
};

describe('parseMcpConfig', () => {
  it('accepts stdio and HTTP servers', () => {
    expect(
      parseMcpConfig({
        servers: {
          everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'], env: { A: 'b' }, cwd: '/tmp', timeoutMs: 5000, startTimeoutMs: 120000 },
          remote: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer x' }, approval: 'always' },
        },
      }),
    ).toEqual({
      everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'], env: { A: 'b' }, cwd: '/tmp', timeoutMs: 5000, startTimeoutMs: 120000 },
      remote: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer x' }, approval: 'always' },
    });
  });

  it('names what is wrong', () => {
    fails(null, 'expected {"servers"');
    fails({ servers: [] }, 'expected {"servers"');
    fails({ servers: { 'my-server': { command: 'x' } } }, "server name 'my-server' must be letters, digits and _, not starting with a digit (it becomes the tool group tool.my-server.…); try 'my_server'");
    fails({ servers: { a: {} } }, 'needs a command');
    fails({ servers: { a: { command: 'x', url: 'http://h' } } }, 'both command and url');
    fails({ servers: { a: { url: 'ftp://h' } } }, 'http:// or https://');
    fails({ servers: { a: { url: 'not a url' } } }, 'not a URL');
    fails({ servers: { a: { command: 'x', args: [1] } } }, 'args must be a list of strings');
    fails({ servers: { a: { command: 'x', env: { A: 1 } } } }, 'env.A must be a string');
    fails({ servers: { a: { command: 'x', timeoutMs: 0 } } }, 'timeoutMs');
    fails({ servers: { a: { command: 'x', startTimeoutMs: -1 } } }, 'startTimeoutMs must be a number of milliseconds from 1 to 2147483647 (about 24.8 days), got -1');
    // Past a timer's range Node fires at once: every call would time out at its start.
    fails({ servers: { a: { command: 'x', timeoutMs: 1e12 } } }, 'timeoutMs must be a number of milliseconds from 1 to 2147483647 (about 24.8 days), got 1000000000000');
    fails({ servers: { a: { command: 'x', timeoutMs: 'lots' } } }, 'timeoutMs must be a number of milliseconds from 1 to 2147483647 (about 24.8 days), got "lots"');
    fails({ servers: { a: { command: 'x', approval: 'sometimes' } } }, 'approval');
    fails({ servers: { a: { command: 'x', maxResultBytes: 1.5 } } }, 'maxResultBytes');
    fails({ servers: { a: { command: 'x', comand: 'typo' } } }, "unknown field 'comand'");
    // Walkthrough: the typo was named, not the field it meant, as the config file's unknown keys are.
    fails({ servers: { a: { command: 'x', timeoutMS: 5 } } }, "servers.a has an unknown field 'timeoutMS'; did you mean 'timeoutMs'? (the fields are command, args, env, cwd, url, headers, timeoutMs, startTimeoutMs, maxResultBytes, approval)");
    fails({ servers: { a: { command: 'x', zzzzzzzz: 1 } } }, "servers.a has an unknown field 'zzzzzzzz' (the fields are command,");
    fails({ servers: { Files: { command: 'x' }, files: { command: 'y' } } }, 'case-insensitive');
  });

  it('refuses a field of the other kind of server instead of dropping it', () => {
    fails({ servers: { a: { command: 'npx', headers: { Authorization: 'Bearer x' } } } }, 'servers.a.headers is for a url (Streamable HTTP) server; a command (stdio) server takes env (its environment)');
    fails({ servers: { a: { url: 'https://h/mcp', env: { TOKEN: 'x' } } } }, 'servers.a.env is for a command (stdio) server; a url (Streamable HTTP) server takes headers');
    fails({ servers: { a: { url: 'https://h/mcp', args: ['--x'] } } }, 'servers.a.args is for a command (stdio) server');
    fails({ servers: { a: { url: 'https://h/mcp', cwd: '/srv' } } }, 'servers.a.cwd is for a command (stdio) server');
    fails({ servers: { a: { command: 'npx', url: 5 } } }, 'servers.a.url must be a string (an http:// or https:// URL)');
    expect(pathOf({ servers: { a: { command: 'npx', headers: {} } } })).toEqual(['servers', 'a', 'headers']);
    expect(pathOf({ servers: { a: { url: 'https://h/mcp', env: {} } } })).toEqual(['servers', 'a', 'env']);
  });

  it('says a name of letters and digits is refused for its leading digit, not for its characters', () => {
    fails({ servers: { '1srv': { command: 'x' } } }, "server name '1srv' must not start with a digit (it becomes the tool group tool.1srv.…); try '_1srv'");
    expect(() => parseMcpConfig({ servers: { '1srv': { command: 'x' } } })).not.toThrowError(/must be letters, digits and _/);
  });

  it('says where in the config each problem is, so a file reader can point at its line', () => {
    expect(pathOf({ servers: { a: { command: 'x', args: [1] } } })).toEqual(['servers', 'a', 'args']);
    expect(pathOf({ servers: { a: { command: 'x', env: { A: 1 } } } })).toEqual(['servers', 'a', 'env', 'A']);
    expect(pathOf({ servers: { a: { url: 'http://h', timeoutMs: 'lots' } } })).toEqual(['servers', 'a', 'timeoutMs']);
    expect(pathOf({ servers: { a: { command: 'x', comand: 'typo' } } })).toEqual(['servers', 'a', 'comand']);
    expect(pathOf({ servers: { a: {} } })).toEqual(['servers', 'a']);
    expect(pathOf({ servers: { a: { command: 5 } } })).toEqual(['servers', 'a', 'command']);
    expect(pathOf(null)).toBeUndefined();
  });

  it('never shows header values in errors', () => {
    try {
      parseMcpConfig({ servers: { a: { url: 'http://h', headers: { Authorization: 'sk-secret', X: 2 } } } });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).not.toContain('sk-secret');
    }
  });
});
