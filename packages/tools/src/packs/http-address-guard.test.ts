/**
 * A `net` grant pattern never reaches a special-use address (loopback,
 * private, link-local, …): not by a literal, not by a name resolving to one,
 * not through a redirect, not through a proxy. Real loopback servers; host
 * names other than `localhost` get fixed addresses from an injected resolver
 * (the `lookup` option), which the same connection code uses as the system's.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hostFor } from '../../test/tool-test-host.ts';
import type { HostResolver } from './http-address-guard.ts';
import { createHttpTools, type HttpToolsOptions } from './http-tools.ts';

const run = promisify(execFile);

let server: Server;
let port: number;
let origin: string;
/** Every request the server received: `host path`. */
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push(`${request.headers.host} ${request.url}`);
    const url = new URL(request.url ?? '/', 'http://x');
    if (url.pathname === '/redirect') response.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
    else response.end(`hello ${request.method}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  seen.length = 0;
});

/** A resolver answering from `table` (a list per name, or a list per call), recording every name it is asked. */
function fixedResolver(table: Record<string, readonly string[] | readonly (readonly string[])[]>) {
  const calls: string[] = [];
  const lookup: HostResolver = async (hostname) => {
    const count = calls.filter((name) => name === hostname).length;
    calls.push(hostname);
    const entry = table[hostname];
    if (entry === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    const answer = Array.isArray(entry[0]) ? (entry as readonly (readonly string[])[])[Math.min(count, entry.length - 1)]! : (entry as readonly string[]);
    return answer.map((address) => ({ address }));
  };
  return { lookup, calls };
}

const hostWith = (grants: string[], options: HttpToolsOptions = {}) => hostFor([createHttpTools({ timeoutMs: 10_000, ...options })], { allow: ['tool.http.*'], grants });

/** The refusal's message after its first clause. */
const REFUSAL =
  'which only a grant naming the host reaches: a net grant pattern (*, **, *.example.com) stands for the public internet, never loopback, private, link-local or other special-use addresses, so nothing was sent; if the program should reach this host, the operator must name it in a grant:';
const refusal = (where: string, need: string) => `tool.http.Fetch: ${where}, ${REFUSAL} add the grant ${need} to the policy (pack http)`;

describe('a net grant pattern does not reach a special-use address', () => {
  it.each(['net:read', 'net:read:*', 'net:read:**', 'net:read:127.*.*.*', '*:*'])('%s does not reach 127.0.0.1 by its literal, and nothing is sent', async (grant) => {
    const error = await hostWith([grant]).fail('tool.http.Fetch', [`${origin}/hello`]);
    expect([error.code, error.referenceCode, error.capability, error.message]).toEqual([
      'HTTP_ADDRESS_DENIED',
      1003,
      `net:read:127.0.0.1:${port}`,
      refusal('127.0.0.1 is a special-use address (127.0.0.0/8, loopback)', `net:read:127.0.0.1:${port}`),
    ]);
    // The grant that reaches it as a field too, kept when the http pack's error is named (pack http).
    expect(error.toJSON().grant).toBe(`net:read:127.0.0.1:${port}`);
    expect(seen).toEqual([]);
  });

  it.each([
    ['0.0.0.0', '0.0.0.0 is a special-use address (0.0.0.0/8, this network; 0.0.0.0 reaches this machine)', 'net:read:0.0.0.0:PORT'],
    ['0x7f.1', '127.0.0.1 is a special-use address (127.0.0.0/8, loopback)', 'net:read:127.0.0.1:PORT'],
    ['2130706433', '127.0.0.1 is a special-use address (127.0.0.0/8, loopback)', 'net:read:127.0.0.1:PORT'],
    // The hint is shell-quoted: brackets are special to a shell.
    ['[::ffff:127.0.0.1]', '[::ffff:7f00:1] is a special-use address (127.0.0.0/8, loopback; 127.0.0.1 as IPv4-mapped IPv6)', "'net:read:[::ffff:7f00:1]:PORT'"],
    ['[::1]', '[::1] is a special-use address (::1/128, loopback)', "'net:read:[::1]:PORT'"],
  ])('nor %s, however the literal is written', async (literal, where, need) => {
    const error = await hostWith(['net:read']).fail('tool.http.Fetch', [`http://${literal}:${port}/hello`]);
    expect([error.code, error.message]).toEqual(['HTTP_ADDRESS_DENIED', refusal(where, need.replace('PORT', String(port)))]);
    // Unquoted in the field: quoting is for a shell, and the reader that prints it quotes it.
    expect(error.grant).toBe(need.replace('PORT', String(port)).replaceAll("'", ''));
    expect(seen).toEqual([]);
  });

  it('nor localhost, which the system resolves to loopback', async () => {
    const error = await hostWith(['net:read:*']).fail('tool.http.Fetch', [`http://localhost:${port}/hello`]);
    expect(error.code).toBe('HTTP_ADDRESS_DENIED');
    expect(error.message).toMatch(/^tool\.http\.Fetch: localhost resolves to (127\.0\.0\.1, a special-use address \(127\.0\.0\.0\/8|::1, a special-use address \(::1\/128), loopback\), which only a grant naming the host reaches/);
    expect(seen).toEqual([]);
  });

  it('nor a name under a granted pattern that resolves to loopback, a private or the metadata address (asked once, nothing sent)', async () => {
    const { lookup, calls } = fixedResolver({ 'rebind.example.com': ['127.0.0.1'], 'metadata.example.com': ['169.254.169.254'], 'intranet.example.com': ['10.0.0.7'], 'six.example.com': ['::ffff:127.0.0.1'] });
    const host = hostWith(['net:read:*.example.com'], { lookup });
    const cases = [
      ['rebind.example.com', '127.0.0.1, a special-use address (127.0.0.0/8, loopback)'],
      ['metadata.example.com', '169.254.169.254, a special-use address (169.254.0.0/16, link-local; cloud metadata is at 169.254.169.254)'],
      ['intranet.example.com', '10.0.0.7, a special-use address (10.0.0.0/8, private)'],
      ['six.example.com', '::ffff:127.0.0.1, a special-use address (127.0.0.0/8, loopback; 127.0.0.1 as IPv4-mapped IPv6)'],
    ];
    for (const [name, address] of cases) {
      const error = await host.fail('tool.http.Fetch', [`http://${name}:${port}/latest/meta-data/`]);
      expect([error.code, error.capability, error.message]).toEqual(['HTTP_ADDRESS_DENIED', `net:read:${name}:${port}`, refusal(`${name} resolves to ${address}`, `net:read:${name}:${port}`)]);
    }
    expect(calls).toEqual(cases.map(([name]) => name));
    expect(seen).toEqual([]);
  });

  it('nor a name answering with a public and a loopback address: no address of it is tried', async () => {
    const { lookup } = fixedResolver({ 'mixed.example.com': ['93.184.215.14', '127.0.0.1'] });
    const error = await hostWith(['net:read:*.example.com'], { lookup }).fail('tool.http.Fetch', [`http://mixed.example.com:${port}/`]);
    expect([error.code, error.message]).toEqual(['HTTP_ADDRESS_DENIED', refusal('mixed.example.com resolves to 127.0.0.1, a special-use address (127.0.0.0/8, loopback)', `net:read:mixed.example.com:${port}`)]);
    expect(seen).toEqual([]);
  });

  it('nor a redirect from a host granted by name to loopback under a pattern: the hop is refused before it is sent', async () => {
    const error = await hostWith(['net:read:127.0.0.1', 'net:read:*']).fail('tool.http.Fetch', [`${origin}/redirect?to=http://localhost:${port}/hello`]);
    expect(error.code).toBe('HTTP_ADDRESS_DENIED');
    expect(error.message).toMatch(/^tool\.http\.Fetch: localhost resolves to /);
    expect(seen).toEqual([`127.0.0.1:${port} /redirect?to=http://localhost:${port}/hello`]);
  });

  it('nor a redirect from a public-looking name to the metadata address', async () => {
    const { lookup, calls } = fixedResolver({ 'www.example.com': ['127.0.0.1'], 'metadata.example.com': ['169.254.169.254'] });
    const host = hostWith(['net:read:www.example.com', 'net:read:*.example.com'], { lookup });
    const error = await host.fail('tool.http.Fetch', [`http://www.example.com:${port}/redirect?to=http://metadata.example.com/latest/meta-data/`]);
    expect([error.code, error.message]).toEqual([
      'HTTP_ADDRESS_DENIED',
      refusal('metadata.example.com resolves to 169.254.169.254, a special-use address (169.254.0.0/16, link-local; cloud metadata is at 169.254.169.254)', 'net:read:metadata.example.com:80'),
    ]);
    expect(calls).toEqual(['www.example.com', 'metadata.example.com']);
    expect(seen).toHaveLength(1);
  });

  it('nor a write under a write pattern when the host is named for reading only', async () => {
    const error = await hostWith(['net:read:127.0.0.1', 'net:write:*']).fail('tool.http.Fetch', [`${origin}/echo`, { method: 'POST', body: 'x' }]);
    expect([error.code, error.capability]).toEqual(['HTTP_ADDRESS_DENIED', `net:write:127.0.0.1:${port}`]);
    expect(seen).toEqual([]);
  });
});

describe('a grant naming the host reaches it', () => {
  it.each([['net:read:127.0.0.1'], ['net:read:127.0.0.1:PORT'], ['net:read:*', 'net:read:127.0.0.1'], ['net:*:127.0.0.1:*']])('%s reaches 127.0.0.1', async (...grants) => {
    const result = await hostWith(grants.map((grant) => grant.replace('PORT', String(port)))).call('tool.http.Fetch', [`${origin}/hello`]);
    expect(result).toMatchObject({ status: 200, body: 'hello GET' });
  });

  it('localhost granted by name with its port', async () => {
    expect(await hostWith([`net:read:localhost:${port}`, 'net:read:*']).call('tool.http.Fetch', [`http://localhost:${port}/hello`])).toMatchObject({ status: 200, body: 'hello GET' });
  });

  it('an internal name granted by name, on the address its one lookup gave (the connection never asks again)', async () => {
    // The second answer would fail (nothing listens on 127.0.0.2): a check on one lookup and a connection on another would show.
    const { lookup, calls } = fixedResolver({ 'internal.corp': [['127.0.0.1'], ['127.0.0.2']] });
    const host = hostWith(['net:read:internal.corp'], { lookup });
    expect(await host.call('tool.http.Fetch', [`http://internal.corp:${port}/hello`])).toMatchObject({ status: 200, body: 'hello GET' });
    expect(calls).toEqual(['internal.corp']);
    expect(seen).toEqual([`internal.corp:${port} /hello`]);
  });

  it("any covering grant, patterns included, when the pack is made with specialAddresses: 'granted'", async () => {
    const { lookup } = fixedResolver({ 'db.corp.internal': ['127.0.0.1'] });
    const host = hostWith(['net:read:*.corp.internal', 'net:read:*'], { lookup, specialAddresses: 'granted' });
    expect(await host.call('tool.http.Fetch', [`http://db.corp.internal:${port}/hello`])).toMatchObject({ status: 200 });
    expect(await host.call('tool.http.Fetch', [`${origin}/hello`])).toMatchObject({ status: 200 });
  });

  it('a name that does not resolve is HTTP_FAILED, and an answer that is no address too', async () => {
    const { lookup } = fixedResolver({ 'odd.example.com': ['not-an-ip'] });
    const host = hostWith(['net:read:*.example.com'], { lookup });
    const missing = await host.fail('tool.http.Fetch', ['http://nowhere.example.com/']);
    expect([missing.code, missing.message]).toEqual(['HTTP_FAILED', 'tool.http.Fetch: request to http://nowhere.example.com/ failed: getaddrinfo ENOTFOUND nowhere.example.com (pack http)']);
    const odd = await host.fail('tool.http.Fetch', ['http://odd.example.com/']);
    expect([odd.code, odd.message]).toEqual(['HTTP_FAILED', "tool.http.Fetch: odd.example.com resolved to 'not-an-ip', which is not an IP address; nothing was sent (pack http)"]);
  });
});

describe('proxies from the environment are not a way around the check', () => {
  let proxy: Server;
  let proxied: string[];
  beforeAll(async () => {
    proxied = [];
    proxy = createServer((request, response) => {
      proxied.push(`${request.method} ${request.url}`);
      response.end('via proxy');
    });
    proxy.on('connect', (request: { url?: string }, socket: NodeJS.WritableStream & { destroy(): void }) => {
      proxied.push(`CONNECT ${request.url}`);
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    proxy.closeAllConnections();
    await new Promise((resolve) => proxy.close(resolve));
  });

  const fetchInChild = async (url: string, grants: string[]) => {
    const child = fileURLToPath(new URL('../../test/fixtures/http-fetch-child.ts', import.meta.url));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const env = { ...process.env, NODE_USE_ENV_PROXY: '1', HTTP_PROXY: proxyUrl, HTTPS_PROXY: proxyUrl, http_proxy: proxyUrl, https_proxy: proxyUrl, NO_PROXY: '', no_proxy: '' };
    const { stdout } = await run(process.execPath, ['--disable-warning=ExperimentalWarning', child, url, JSON.stringify(grants)], { env, timeout: 30_000 });
    return JSON.parse(stdout) as { result?: Record<string, unknown>; code?: string; message?: string };
  };

  it('NODE_USE_ENV_PROXY with HTTP_PROXY: a pattern is still refused loopback, and a named host is fetched directly', async () => {
    expect(await fetchInChild(`${origin}/hello`, ['net:read:*'])).toMatchObject({ code: 'HTTP_ADDRESS_DENIED' });
    expect(await fetchInChild(`${origin}/hello`, ['net:read:127.0.0.1'])).toMatchObject({ result: { status: 200, body: 'hello GET' } });
    expect(proxied).toEqual([]);
    expect(seen).toEqual([`127.0.0.1:${port} /hello`]);
  });
});
