/**
 * A PostgreSQL password never reaches the output (whether written as
 * `user:password@` or `?password=`), and never gets into askloop.config.yaml:
 * the config's secret check refuses a store URL with a password and a bearer
 * token inside a text, and leaves ordinary prose alone.
 */
import { describe, expect, it } from 'vitest';
import { parseConfig, type ConfigError } from '../src/config/index.ts';
import { redactMessage, redactUrl } from '../src/loop/redact-url.ts';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';

function configError(text: string): ConfigError | undefined {
  try {
    parseConfig(text, { file: '/project/askloop.config.yaml', display: 'askloop.config.yaml' });
  } catch (error) {
    return error as ConfigError;
  }
  return undefined;
}

describe('redactUrl', () => {
  it.each([
    ['postgres://u@127.0.0.1:1/db?password=hunter2pass&sslmode=disable', 'postgres://u@127.0.0.1:1/db?password=***&sslmode=disable'],
    ['postgres://u:hunter2pass@db/askloop', 'postgres://u:***@db/askloop'],
    ['postgresql://u@db/x?sslmode=require&sslpassword=keypass1&PASSWORD=other1', 'postgresql://u@db/x?sslmode=require&sslpassword=***&PASSWORD=***'],
    ['postgres://u@db/x?passfile=%2Fhome%2Fu%2F.pgpass', 'postgres://u@db/x?passfile=%2Fhome%2Fu%2F.pgpass'],
    ['postgres://u@db/x', 'postgres://u@db/x'],
  ])('%s → %s', (url, shown) => {
    expect(redactUrl(url)).toBe(shown);
  });

  it('removes a secret value a message quotes on its own, decoded or not', () => {
    const url = 'postgres://u@db/x?password=p%40ss+word1';
    expect(redactMessage(`failed for ${url}: bad password p@ss word1`, url)).toBe('failed for postgres://u@db/x?password=***: bad password ***');
  });
});

describe('a URL that does not parse (PG_URL_INVALID) is shown whole but for its password', () => {
  const port = '; the port 99999 is over 65535';
  const encode = '; a user or password with a space or one of # / ? @ [ ] must be percent-encoded (# is %23, a space %20, / is %2F, ? is %3F, @ is %40), or given in PGPASSWORD or ~/.pgpass instead';
  it.each([
    ['postgres://askloop@db:99999/x', 'postgres://askloop@db:99999/x', port],
    ['postgres://u:hunter2pass@[bad/x', 'postgres://u:***@[bad/x', ''],
    ['postgres://u:p@ss@db:99999/x', 'postgres://u:***@db:99999/x', port],
    ['postgres://u@db:99999/x?password=hunter2pass&sslmode=disable', 'postgres://u@db:99999/x?password=***&sslmode=disable', port],
    ['postgres://u:pa#ss@db:5432/x', 'postgres://u:***@db:5432/x', encode],
    ['postgres://u:pa/ss@db:5432/x', 'postgres://u:***@db:5432/x', encode],
    ['postgres://u:pa?ss@db:5432/x', 'postgres://u:***@db:5432/x', encode],
  ])('%s → %s, saying which part is wrong', async (url, shown, hint) => {
    expect(redactUrl(url)).toBe(shown);
    const io = captureIo();
    expect(await main(['run', 'x', '--model', 'ollama:m', '--db', url], io)).toBe(1);
    expect(io.err).toBe(`askloop: not a PostgreSQL URL: ${shown} (Invalid URL)${hint} (PG_URL_INVALID)\n`);
    expect(io.err).not.toContain('hunter2pass');
    expect(io.err).not.toMatch(/pa[#/?]ss/);
  });

  // The URL parser ends the password at a / ? or # it holds; the rest (and the real host, after an @) reads as the
  // path, a piece of the password as the host. Regression: nearly all of it was printed, and looked up in DNS.
  it.each([
    ['postgres://askloop:Xy@Secret/Tail99@127.0.0.1:1/askloop', 'postgres://askloop:***@127.0.0.1:1/askloop', ['Secret', 'Tail99']],
    ['postgres://askloop:Xy@Secret?Tail99@127.0.0.1:1/askloop', 'postgres://askloop:***@127.0.0.1:1/askloop', ['Secret', 'Tail99']],
    ['postgres://askloop:p@ss#w%20rd@127.0.0.1:1/askloop', 'postgres://askloop:***@127.0.0.1:1/askloop', ['ss#w', 'w%20rd']],
    // Digits before the / read as a port, so the parser sees no user and no password at all.
    ['postgres://alice:2024/Secret@127.0.0.1:1/app', 'postgres://alice:***@127.0.0.1:1/app', ['2024', 'Secret']],
  ])('%s is refused before any connection, none of its password shown', async (url, shown, pieces) => {
    expect(redactUrl(url)).toBe(shown);
    for (const command of [['run', 'x', '--model', 'ollama:m', '--db', url], ['sessions', '--db', url]]) {
      const io = captureIo();
      expect(await main(command, io)).toBe(1);
      expect(io.err).toBe(`askloop: not a PostgreSQL URL: ${shown} (the password ends at a / ? or # it holds, and the rest reads as the host)${encode} (PG_URL_INVALID)\n`);
      for (const piece of pieces) expect(io.err).not.toContain(piece);
    }
  });

  it('keeps a URL whose query holds an @ in a value, and one without a password', () => {
    expect(redactUrl('postgres://u:pw1@db/x?application_name=a@b')).toBe('postgres://u:***@db/x?application_name=a@b');
    expect(redactUrl('postgres://u@db/x')).toBe('postgres://u@db/x');
  });
});

describe('a PostgreSQL error never prints the password', () => {
  it.each([
    ['in the query', 'postgres://u@127.0.0.1:1/db?password=hunter2pass&sslmode=disable'],
    ['in the userinfo', 'postgres://u:hunter2pass@127.0.0.1:1/db?sslmode=disable'],
  ])('%s', async (_, url) => {
    const io = captureIo();
    // Port 1 on loopback refuses at once: the migration fails and the error names the store.
    expect(await main(['run', 'x', '--model', 'ollama:m', '--db', url], io)).toBe(1);
    expect(io.err).toMatch(/PG_QUERY_FAILED/);
    expect(io.err).toContain('postgres://u');
    expect(io.err).not.toContain('hunter2pass');
    const json = captureIo();
    expect(await main(['run', 'x', '--model', 'ollama:m', '--db', url, '--json'], json)).toBe(1);
    expect(JSON.parse(json.out).error.code).toBe('PG_QUERY_FAILED');
    expect(json.out + json.err).not.toContain('hunter2pass');
  });
});

describe('the config file refuses passwords and bearer tokens in text', () => {
  it.each([
    ['a store URL with ?password=', 'store: "postgres://u@db:5432/askloop?password=hunter2pass&sslmode=disable"\n', 1, /password in its query.*PGPASSWORD/],
    ['a store URL with user:password@', 'store: postgres://u:hunter2pass@db/askloop\n', 1, /password in its userinfo/],
    ['a store URL no parser takes, with user:password@', 'store: postgres://u:hunter2pass@127.0.0.1:99999/db\n', 1, /password in its userinfo/],
    ['a store URL no parser takes, with ?password=', 'store: "postgres://u@127.0.0.1:99999/db?password=hunter2pass"\n', 1, /password in its query/],
    ['a store URL whose password holds a / (parsed as a port and a path)', 'store: postgres://alice:2024/hunter2pass@db/app\n', 1, /password in its userinfo/],
    ['an MCP server URL with a password', 'mcpServers:\n  t:\n    url: "https://bot:hunter2pass@mcp.example.com/mcp"\n', 3, /password in its userinfo/],
    ['a bearer token inside instructions', 'agents:\n  a:\n    model: openai:x\n    instructions: "use Bearer abcdef0123456789xyz when you call the API"\n', 4, /bearer credential/],
    ['a lower-case bearer token inside text', 'agents:\n  a:\n    model: openai:x\n    description: "send it as bearer eyJhbGciOiJIUzI1NiJ9.e30.abc"\n', 4, /bearer credential/],
  ])('%s', (_, text, line, message) => {
    const error = configError(text);
    expect(error?.code).toBe('CONFIG_SECRET');
    expect(error?.line).toBe(line);
    expect(error?.message).toMatch(message);
    expect(error?.message).not.toMatch(/hunter2pass|abcdef0123|eyJhb/);
  });

  it.each([
    ['prose about bearer tokens', 'agents:\n  a:\n    model: openai:x\n    instructions: "Bearer tokens expire after 3600 seconds; the bearer of the key is the caller. Send Bearer ${TOKEN}."\n'],
    ['prose about passwords', 'agents:\n  a:\n    model: openai:x\n    instructions: "Never ask for a password=... value; see https://example.com/docs?page=password for why"\n'],
    ['a store URL without a password', 'store: "postgres://askloop@db:5432/askloop?sslmode=require&passfile=/run/secrets/pgpass"\n'],
    ['a store URL with an empty password', 'store: "postgres://askloop@db/askloop?password="\n'],
    ['a store URL with a port and an @ in its query value', 'store: "postgres://askloop@db:5432/app?application_name=a@b"\n'],
    ['a URL no parser takes, without a password', 'agents:\n  a:\n    model: openai:x\n    instructions: "the old server was http://u@127.0.0.1:99999/x"\n'],
    ['a path with a colon and an @', 'agents:\n  a:\n    model: openai:x\n    instructions: "read https://example.com/a:b@c and reply"\n'],
  ])('accepts %s', (_, text) => {
    expect(configError(text)).toBeUndefined();
  });
});
