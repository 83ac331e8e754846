import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hostFor } from '../../test/tool-test-host.ts';
import { formatCapability } from '../policy/capability.ts';
import { createPolicy } from '../policy/policy.ts';
import { createHttpTools, httpNeed, parseHttpUrl } from './http-tools.ts';
import type { ToolValue as ToolValueLike } from '../spec/tool-value.ts';

let server: Server;
let origin: string;
let port: number;
/** A second origin (another port), for redirects that change origin. */
let other: Server;
let otherPort: number;
/** The requests both servers received: `host path` and the credential headers. */
const seen: { at: string; headers: (string | undefined)[] }[] = [];

const REDIRECTS: Record<string, () => string> = {
  '/start': () => `${origin}/same`,
  '/same': () => `http://localhost:${otherPort}/other`,
  '/other': () => `${origin}/back`,
  '/loop-a': () => '/loop-b',
  '/loop-b': () => '/loop-a',
};

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    seen.push({ at: `${request.headers.host} ${request.url}`, headers: [request.headers.authorization, request.headers.cookie, request.headers['proxy-authorization'], request.headers['x-keep'] as string | undefined] });
    const redirect = REDIRECTS[url.pathname];
    if (redirect !== undefined) {
      response.writeHead(url.pathname === '/loop-b' ? 301 : 302, { location: redirect() }).end();
    } else if (url.pathname === '/redirect') {
      response.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
    } else if (url.pathname === '/headers') {
      response.end(JSON.stringify(request.headers));
    } else if (url.pathname === '/back') {
      response.end('back');
    } else if (url.pathname === '/hello') {
      response.setHeader('content-type', 'text/plain');
      response.end(`hello ${request.method} ${request.headers['x-test'] ?? ''}`);
    } else if (url.pathname === '/echo') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => response.end(`${request.method}:${body}`));
    } else if (url.pathname === '/repeated') {
      response.writeHead(200, ['content-type', 'text/a', 'content-type', 'text/b', 'set-cookie', 'a=1', 'set-cookie', 'b=2', 'x-one', '1']).end('ok');
    } else if (url.pathname === '/see-other') {
      response.writeHead(303, { location: '/method' }).end();
    } else if (url.pathname === '/method') {
      response.end(request.method);
    } else if (url.pathname === '/big') {
      response.end('x'.repeat(2_000));
    } else if (url.pathname === '/slow') {
      const timer = setTimeout(() => response.end('late'), 5_000);
      response.on('close', () => clearTimeout(timer));
    } else if (url.pathname === '/redirect-inside') {
      response.writeHead(302, { location: '/hello' }).end();
    } else if (url.pathname === '/redirect-outside') {
      response.writeHead(302, { location: 'http://evil.example.org/steal' }).end();
    } else {
      response.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  other = createServer((request, response) => server.emit('request', request, response));
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherPort = (other.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const each of [server, other]) {
    each.closeAllConnections();
    await new Promise((resolve) => each.close(resolve));
  }
});
beforeEach(() => {
  seen.length = 0;
});

// A loopback answer takes a millisecond, but a loaded machine can pause this process for a second or two: only the
// timeout test uses a short timeout.
const granted = (timeoutMs = 10_000) => hostFor([createHttpTools({ maxBytes: 1_000, timeoutMs })], { allow: ['tool.http.*'], grants: ['net:read,write:127.0.0.1'] });

describe('tool.http.Fetch', () => {
  it('fetches from a granted host', async () => {
    const result = (await granted().call('tool.http.Fetch', [`${origin}/hello`, { headers: { 'X-Test': 'yes' } }])) as Record<string, unknown>;
    expect(result).toMatchObject({ status: 200, ok: true, url: `${origin}/hello`, body: 'hello GET yes' });
    expect((result.headers as Record<string, string>)['content-type']).toBe('text/plain');
  });

  it('returns error statuses as data', async () => {
    expect(await granted().call('tool.http.Fetch', [`${origin}/missing`])).toMatchObject({ status: 404, ok: false, body: 'not found' });
  });

  it('sends a body with non-GET methods (which need net:write)', async () => {
    expect(await granted().call('tool.http.Fetch', [{ url: `${origin}/echo`, options: { method: 'post', body: 'payload' } }])).toMatchObject({ body: 'POST:payload' });
    const readOnly = hostFor([createHttpTools()], { allow: ['**'], grants: ['net:read:127.0.0.1'] });
    const error = await readOnly.fail('tool.http.Fetch', [`${origin}/echo`, { method: 'POST', body: 'x' }]);
    expect([error.code, error.message]).toEqual(['HTTP_HOST_DENIED', `tool.http.Fetch needs capability net:write:127.0.0.1:${port} — add the grant net:write:127.0.0.1:${port} to the policy`]);
  });

  it("sends fetch's accept and user-agent unless the program sets them, a counted body, and one connection a request", async () => {
    const sent = async (options: Record<string, ToolValueLike>) => JSON.parse(((await granted().call('tool.http.Fetch', [`${origin}/headers`, options])) as { body: string }).body) as Record<string, string>;
    expect(await sent({})).toMatchObject({ accept: '*/*', 'user-agent': 'node', connection: 'close' });
    expect(await sent({ headers: { Accept: 'text/html', 'User-Agent': 'bot' } })).toMatchObject({ accept: 'text/html', 'user-agent': 'bot' });
    expect(await sent({ method: 'POST' })).toMatchObject({ 'content-length': '0' });
    expect(await sent({ method: 'PUT', body: 'é' })).toMatchObject({ 'content-length': '2', 'content-type': 'text/plain;charset=UTF-8' });
    expect(await granted().call('tool.http.Fetch', [`${origin}/hello`, { method: 'HEAD' }])).toMatchObject({ status: 200, body: '' });
  });

  it.each(['Host', 'content-length', 'Connection', 'Transfer-Encoding', 'Trailer'])('refuses a %s header, which the tool sets itself', async (name) => {
    const error = await granted().fail('tool.http.Fetch', [`${origin}/hello`, { headers: { [name]: 'x' } }]);
    expect([error.code, error.message]).toEqual([
      'TOOL_ARGUMENT_INVALID',
      `tool.http.Fetch: options header '${name}' is set by the tool itself (from the URL and the body); leave it out; options is {"method": "GET", "headers": {"Name": "value"}, "body": "text"}, every key optional (pack http)`,
    ]);
    expect(seen).toEqual([]);
  });

  it("returns every value of a repeated response header joined with ', ', as fetch's Headers.get does", async () => {
    const result = (await granted().call('tool.http.Fetch', [`${origin}/repeated`])) as { headers: Record<string, string> };
    expect(result.headers).toMatchObject({ 'content-type': 'text/a, text/b', 'set-cookie': 'a=1, b=2', 'x-one': '1' });
  });

  it('a 303 turns a POST into a GET but keeps a HEAD a HEAD, as fetch does', async () => {
    const writer = hostFor([createHttpTools()], { allow: ['tool.http.*'], grants: ['net:read,write:127.0.0.1'] });
    expect(await writer.call('tool.http.Fetch', [`${origin}/see-other`, { method: 'POST', body: 'x' }])).toMatchObject({ url: `${origin}/method`, body: 'GET' });
    expect(await granted().call('tool.http.Fetch', [`${origin}/see-other`, { method: 'HEAD' }])).toMatchObject({ status: 200, url: `${origin}/method`, body: '' });
    expect(seen.map(({ at }) => at.split(' ')[1])).toEqual(['/see-other', '/method', '/see-other', '/method']);
  });

  it('follows redirects on granted hosts and re-checks every hop', async () => {
    expect(await granted().call('tool.http.Fetch', [`${origin}/redirect-inside`])).toMatchObject({ status: 200, url: `${origin}/hello`, body: 'hello GET ' });
    const error = await granted().fail('tool.http.Fetch', [`${origin}/redirect-outside`]);
    expect([error.code, error.message]).toEqual(['HTTP_HOST_DENIED', 'tool.http.Fetch needs capability net:read:evil.example.org:80 — add the grant net:read:evil.example.org:80 to the policy (pack http)']);
  });

  it('is off unless the host is granted', async () => {
    const other = hostFor([createHttpTools()], { allow: ['**'], grants: ['net:read:*.example.com'] });
    const error = await other.fail('tool.http.Fetch', [`${origin}/hello`]);
    expect([error.code, error.referenceCode, error.message]).toEqual(['HTTP_HOST_DENIED', 1003, `tool.http.Fetch needs capability net:read:127.0.0.1:${port} — add the grant net:read:127.0.0.1:${port} to the policy`]);
    const none = hostFor([createHttpTools()], { allow: ['**'] });
    // No net grant at all: the denial still names the host the call needs.
    const ungranted = await none.fail('tool.http.Fetch', [`${origin}/hello`]);
    expect([ungranted.code, ungranted.capability]).toEqual(['HTTP_HOST_DENIED', `net:read:127.0.0.1:${port}`]);
  });

  it('limits the body size', async () => {
    const error = await granted().fail('tool.http.Fetch', [`${origin}/big`]);
    expect([error.code, error.message]).toEqual(['HTTP_TOO_LARGE', 'tool.http.Fetch: response body is larger than 1000 bytes (pack http)']);
  });

  it('limits the time', async () => {
    const error = await granted(300).fail('tool.http.Fetch', [`${origin}/slow`]);
    expect(error.code).toBe('TOOL_TIMEOUT');
    expect(error.message).toBe(`tool.http.Fetch: request to 127.0.0.1:${port} did not finish within 300 ms (pack http)`);
  });

  it('reports connection failures', async () => {
    const closed = hostFor([createHttpTools()], { allow: ['**'], grants: ['net:read:127.0.0.1'] });
    const error = await closed.fail('tool.http.Fetch', ['http://127.0.0.1:1/']);
    expect(error.code).toBe('HTTP_FAILED');
  });

  it.each([
    ['not a url', "tool.http.Fetch: 'not a url' is not an absolute URL (pack http)"],
    ['file:///etc/passwd', 'tool.http.Fetch: only http and https URLs are fetched, not file: (pack http)'],
    ['http://user:pw@127.0.0.1/', 'tool.http.Fetch: URLs with credentials are not fetched (pack http)'],
  ])('refuses %s', async (url, message) => {
    const error = await granted().fail('tool.http.Fetch', [url]);
    expect([error.code, error.message]).toEqual(['HTTP_URL_INVALID', message]);
  });

  it('refuses bad arguments', async () => {
    expect((await granted().fail('tool.http.Fetch', [])).code).toBe('TOOL_ARGUMENT_MISSING');
    expect((await granted().fail('tool.http.Fetch', [`${origin}/hello`, 'GET'])).code).toBe('TOOL_ARGUMENT_INVALID');
    expect((await granted().fail('tool.http.Fetch', [`${origin}/hello`, { method: 'G E T' }])).code).toBe('TOOL_ARGUMENT_INVALID');
  });

  it('derives the capability need from URL and method', () => {
    expect(formatCapability(httpNeed(parseHttpUrl('https://API.example.com/x'), 'GET'))).toBe('net:read:api.example.com:443');
    expect(formatCapability(httpNeed(parseHttpUrl('http://h:8080/'), 'DELETE'))).toBe('net:write:h:8080');
  });
});

describe('tool.http.Fetch redirects (review findings 3 and 10)', () => {
  it('drops Authorization, Cookie and Proxy-Authorization when a redirect changes origin', async () => {
    const host = hostFor([createHttpTools()], { allow: ['**'], grants: ['net:read:127.0.0.1', 'net:read:localhost'] });
    const headers = { Authorization: 'Bearer secret', cookie: 'sid=1', 'Proxy-Authorization': 'Basic x', 'X-Keep': 'kept' };
    expect(await host.call('tool.http.Fetch', [`${origin}/start`, { headers }])).toMatchObject({ status: 200, url: `${origin}/back` });
    expect(seen).toEqual([
      { at: `127.0.0.1:${port} /start`, headers: ['Bearer secret', 'sid=1', 'Basic x', 'kept'] },
      { at: `127.0.0.1:${port} /same`, headers: ['Bearer secret', 'sid=1', 'Basic x', 'kept'] },
      { at: `localhost:${otherPort} /other`, headers: [undefined, undefined, undefined, 'kept'] },
      { at: `127.0.0.1:${port} /back`, headers: [undefined, undefined, undefined, 'kept'] },
    ]);
  });

  it('fails with HTTP_TOO_MANY_REDIRECTS past maxRedirects instead of returning the 3xx', async () => {
    const host = hostFor([createHttpTools({ maxRedirects: 3 })], { allow: ['**'], grants: ['net:read:127.0.0.1'] });
    const error = await host.fail('tool.http.Fetch', [`${origin}/loop-a`]);
    expect([error.code, error.message]).toEqual(['HTTP_TOO_MANY_REDIRECTS', `tool.http.Fetch: request to 127.0.0.1:${port} was redirected 3 times and 127.0.0.1:${port} redirects again; the limit is 3 (pack http)`]);
    expect(seen).toHaveLength(4);
  });
});

describe('net grants and effective ports (review finding 9)', () => {
  it.each([
    ['net:read:example.com:80', 'http://example.com:80/', true],
    ['net:read:example.com:80', 'http://example.com/', true],
    ['net:read:example.com:443', 'https://example.com/', true],
    ['net:read:example.com:80', 'https://example.com/', false],
    ['net:read:[::1]', 'http://[::1]:8080/', true],
    ['net:read:[::1]:8080', 'http://[::1]:8080/', true],
  ])('%s covers %s: %s', (grant, url, covered) => {
    expect(createPolicy({ grants: [grant] }).satisfies(httpNeed(parseHttpUrl(url), 'GET'))).toBe(covered);
  });

  it('refuses a bare IPv6 grant with a message showing the bracket form', () => {
    expect(() => createPolicy({ grants: ['net:read:::1'] })).toThrow("capability 'net:read:::1' has the bare IPv6 address '::1'; write it in brackets, e.g. net:read:[::1] or net:read:[::1]:8080");
  });
});

describe('tool.http.Fetch refuses what it used to ignore or misreport (review)', () => {
  it('a redirect to a malformed Location is HTTP_URL_INVALID naming the redirect, not TOOL_FAILED "Invalid URL"', async () => {
    const start = (location: string) => `${origin}/redirect?to=${encodeURIComponent(location)}`;
    const error = await granted().fail('tool.http.Fetch', [start('http://[bad')]);
    expect([error.code, error.message]).toEqual([
      'HTTP_URL_INVALID',
      `tool.http.Fetch: ${start('http://[bad')} redirected (status 302) to Location 'http://[bad', which is not a valid URL; the redirect cannot be followed (pack http)`,
    ]);
    const scheme = await granted().fail('tool.http.Fetch', [start('ftp://example.com/x')]);
    expect([scheme.code, scheme.message]).toEqual([
      'HTTP_URL_INVALID',
      `tool.http.Fetch: ${start('ftp://example.com/x')} redirected (status 302) to 'ftp://example.com/x', which is not followed: only http and https URLs are fetched, not ftp: (pack http)`,
    ]);
  });

  it.each<[Record<string, ToolValueLike>, string]>([
    [{ method: 5 }, "key 'method' must be a string such as \"GET\" or \"POST\", got number 5"],
    [{ Method: 'POST' }, "has the unknown key 'Method' (keys are lower case: 'method')"],
    [{ timeout: 5 }, "has the unknown key 'timeout'"],
    [{ headers: 'x' }, "key 'headers' must be a map of header names to strings, got string \"x\""],
    [{ headers: { 'X-A': ['1'] } }, "header 'X-A' must be a string, got list [\"1\"]"],
    [{ method: 'POST', body: { a: 1 } }, "key 'body' must be a string (turn data into text with tool.json.Stringify), got map {\"a\":1}"],
  ])('options %j is TOOL_ARGUMENT_INVALID naming options and the key, in the check and the run', async (options, problem) => {
    const host = granted();
    const failure = await host.fail('tool.http.Fetch', [`${origin}/hello`, options]);
    const denial = host.catalog.check('tool.http.Fetch', [`${origin}/hello`, options] as Parameters<typeof host.catalog.check>[1]);
    for (const error of [failure, denial]) {
      expect([error?.code, error?.argument]).toEqual(['TOOL_ARGUMENT_INVALID', 'options']);
      expect(error?.message).toContain(`options ${problem}; options is {"method": "GET", "headers": {"Name": "value"}, "body": "text"}, every key optional`);
    }
  });

  it('still takes every documented option, and nil for any of them', async () => {
    expect(await granted().call('tool.http.Fetch', [`${origin}/hello`, { method: null, headers: { 'X-Test': 7 }, body: null }])).toMatchObject({ body: 'hello GET 7' });
  });
});
