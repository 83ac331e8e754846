/** The viewer's small pure parts: the Host check and the secret redactor. */
import { describe, expect, it } from 'vitest';
import { createSecretRedactor, isAllowedHost, isCrossSiteRequest, REDACTED } from '../src/view/index.ts';
import { createStreamRedactor } from '../src/redact-secrets.ts';

describe('isAllowedHost', () => {
  it('admits the loopback address and localhost with the viewer port only', () => {
    expect(isAllowedHost('127.0.0.1:4000', 4000)).toBe(true);
    expect(isAllowedHost('LOCALHOST:4000', 4000)).toBe(true);
    for (const host of [undefined, '', '127.0.0.1', 'localhost', '127.0.0.1:4001', 'attacker.example:4000', '127.0.0.1:4000.attacker.example', '[::1]:4000', '0.0.0.0:4000']) {
      expect(isAllowedHost(host, 4000), String(host)).toBe(false);
    }
  });
});

describe('isCrossSiteRequest', () => {
  const host = '127.0.0.1:4000';
  it("refuses what another site's or origin's page asks, and lets the page, the address bar and a followed link through", () => {
    // The page's own requests, the address bar (and askloop view opening it), and clients that say nothing (curl).
    for (const headers of [{ 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'none' }, {}, { origin: 'http://127.0.0.1:4000' }, { origin: 'HTTP://LOCALHOST:4000', host: 'localhost:4000' }])
      expect(isCrossSiteRequest({ host, ...headers }), JSON.stringify(headers)).toBe(false);
    // A link followed from another site's page opens the viewer.
    expect(isCrossSiteRequest({ host, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' })).toBe(false);
    for (const headers of [
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' },
      // Another port of the same machine is the same site, but another origin.
      { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'cors' },
      // Framed by another site (the viewer's X-Frame-Options keeps it from showing, too).
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' },
      { origin: 'http://evil.example' },
      { origin: 'null' },
      { origin: 'http://127.0.0.1:4001' },
    ])
      expect(isCrossSiteRequest({ host, ...headers }), JSON.stringify(headers)).toBe(true);
  });
});

describe('createSecretRedactor', () => {
  it("removes the environment's key values and key-shaped strings everywhere in a value", () => {
    const redact = createSecretRedactor({ ANTHROPIC_API_KEY: 'my-very-private-key', GITHUB_TOKEN: 'tok_abcdefgh', SHORT_KEY: 'abc', HOME: '/home/someone-long' });
    const value = {
      text: 'echo my-very-private-key and tok_abcdefgh',
      list: ['Bearer abcdefghijklmnopqrstuvwxyz', 'sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX', 'AIza' + 'x'.repeat(35)],
      kept: ['abc', '/home/someone-long', 'a digest 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', 42, null, true],
    };
    expect(redact(value)).toEqual({
      text: `echo ${REDACTED} and ${REDACTED}`,
      list: [REDACTED, REDACTED, REDACTED],
      kept: value.kept,
    });
  });

  it("removes them from a map's keys too, keeping __proto__ a key (a tool's map keyed by a secret was served as it was)", () => {
    const redact = createSecretRedactor({ OPENAI_API_KEY: 'SUPERSECRETVALUE99' });
    const served = redact({ result: { SUPERSECRETVALUE99: 'as a key', ['__proto__']: 'SUPERSECRETVALUE99' }, n: 1 }) as { result: Record<string, unknown> };
    expect(JSON.stringify(served)).not.toContain('SUPERSECRETVALUE99');
    expect(served.result[REDACTED]).toBe('as a key');
    expect(Object.getOwnPropertyDescriptor(served.result, '__proto__')?.value).toBe(REDACTED);
  });

  it('leaves a key-named variable whose value is a file path alone (a path is no key; hidden, it would mask every listing)', () => {
    const redact = createSecretRedactor({ SSL_KEY_FILE: '/etc/ssl/private/server-key.pem', GOOGLE_APPLICATION_CREDENTIALS: '~/gcloud/creds.json', WIN_KEY_PATH: 'C:\\keys\\k.pem', REAL_API_KEY: 'not-a-path-0123456789' });
    expect(redact('/etc/ssl/private/server-key.pem ~/gcloud/creds.json C:\\keys\\k.pem not-a-path-0123456789')).toBe(`/etc/ssl/private/server-key.pem ~/gcloud/creds.json C:\\keys\\k.pem ${REDACTED}`);
  });

  it('reads KEY, TOKEN, SECRET and PASSWORD as whole words of a variable name, not inside another word', () => {
    const redact = createSecretRedactor({ APIKEY: 'value-of-apikey', DB_PASSWORD: 'value-of-password', MONKEY: 'banana-bread', TOKENIZER: 'wordpiece-tokens' });
    expect(redact('value-of-apikey value-of-password banana-bread wordpiece-tokens')).toBe(`${REDACTED} ${REDACTED} banana-bread wordpiece-tokens`);
  });

  it("removes PGPASSWORD's value, a password in any variable's URL, passwords written in URLs, and GitHub tokens", () => {
    const redact = createSecretRedactor({ PGPASSWORD: 'Pg5ecretPW', DATABASE_URL: 'postgres://u:UrlPassw0rd@h/db' });
    expect(redact('pg Pg5ecretPW url UrlPassw0rd')).toBe(`pg ${REDACTED} url ${REDACTED}`);
    expect(redact('see postgres://user:other-secret@db.example/x and https://h/x?sslpassword=hunter22&mode=a')).toBe(`see postgres://user:${REDACTED}@db.example/x and https://h/x?sslpassword=${REDACTED}&mode=a`);
    expect(redact('ghp ghp_abcdefghijklmnopqrstuvwxyz0123456789 and github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstu')).toBe(`ghp ${REDACTED} and ${REDACTED}`);
    // A URL without a password, and a user name alone, stay as they are.
    expect(redact('postgres://user@db.example/x https://example.com/a:b@c')).toBe('postgres://user@db.example/x https://example.com/a:b@c');
    // One masked already (the CLI's own form of a --db URL) is left as it is.
    expect(redact('postgres://u:***@db/x?password=***&a=1')).toBe('postgres://u:***@db/x?password=***&a=1');
    // Masked at the URL's end, before the message's ':' (the ':' was taken for the password's and lost).
    expect(redact('postgres://u@db/x?password=***: password authentication failed')).toBe('postgres://u@db/x?password=***: password authentication failed');
    // A password that only starts with asterisks and a colon is one.
    expect(redact('postgres://u@db/x?password=**:hunter2x failed')).toBe(`postgres://u@db/x?password=${REDACTED} failed`);
  });

  it('holds back a URL password while it streams in, until its @ shows it is one', () => {
    const stream = createStreamRedactor({});
    expect(stream('connect to postgres://app:hunter2hunt')).toBe('connect to postgres://app:…');
    expect(stream('connect to postgres://app:hunter2hunter2@db/x')).toBe(`connect to postgres://app:${REDACTED}@db/x`);
    expect(stream('see https://example.com/a then')).toBe('see https://example.com/a then');
  });

  it('hides JSON Web Tokens and AWS access key ids by their shape, streamed too, and leaves look-alikes', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEyMyJ9.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
    const redact = createSecretRedactor({});
    expect(redact(`token ${jwt} and AKIAIOSFODNN7EXAMPLE`)).toBe(`token ${REDACTED} and ${REDACTED}`);
    // A base64 JSON value alone, a word such as Asia, a short all-caps id: not credentials.
    expect(redact('eyJhbGciOiJIUzI1NiJ9 in Asia, AKIA12')).toBe('eyJhbGciOiJIUzI1NiJ9 in Asia, AKIA12');
    const stream = createStreamRedactor({});
    expect(stream(`the token is ${jwt.slice(0, 45)}`)).toBe('the token is …');
    expect(stream(`the token is ${jwt} ok`)).toBe(`the token is ${REDACTED} ok`);
    expect(stream('we ship to Asia')).toBe('we ship to Asia');
  });
});
