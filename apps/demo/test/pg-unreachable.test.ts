/**
 * A `--db postgres://…` where no server listens: the driver's words
 * (`connect ECONNREFUSED 127.0.0.1:PORT`) named no fix. Walkthrough: every
 * command that opens the store (`sessions`, `show`, `run`, `worker`) now says
 * what to check, from the URL, without its password.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { unreachableServerHint } from '../src/loop/unreachable-server-hint.ts';
import { captureIo } from './capture-io.ts';
import { tempFolders } from './temp-folder.ts';

const folderWith = tempFolders('pg-unreachable');

/** A loopback port nothing listens on: one the system gave a server that then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('a PostgreSQL URL where no server listens', () => {
  it.each([['sessions'], ['show', 'abcd'], ['run', 'task', '--script', 'r.json'], ['worker']])('askloop %s says what to check', async (...args) => {
    const port = await closedPort();
    const io = captureIo({ cwd: folderWith({ 'r.json': '[]' }) });
    expect(await main([...args, '--db', `postgres://app:hunter2secret@127.0.0.1:${port}/askloop`], io)).toBe(1);
    expect(io.err).toContain(`ECONNREFUSED 127.0.0.1:${port}; no server listens at 127.0.0.1:${port}: start PostgreSQL there, or fix the host and port in the URL (PostgreSQL listens on 5432 unless told otherwise) (PG_QUERY_FAILED)\n`);
    expect(io.err).not.toContain('hunter2secret');
  });
});

describe('a PostgreSQL URL whose unix socket no server listens on', () => {
  it('names the socket, not a host and port the URL does not give (it said localhost:5432)', async () => {
    // A socket file no server answers at: connect() to it is refused, as to a socket a stopped server left behind.
    const folder = folderWith({ '.s.PGSQL.5432': '' });
    const io = captureIo({ cwd: folder });
    expect(await main(['sessions', '--db', `postgres:///askloop?host=${folder}`], io)).toBe(1);
    expect(io.err).toContain(`ECONNREFUSED ${folder}/.s.PGSQL.5432; no server listens on the socket ${folder}/.s.PGSQL.5432: start PostgreSQL there, or fix the socket folder (host=) and port in the URL`);
    expect(io.err).not.toContain('localhost');
  });
});

describe('unreachableServerHint', () => {
  it('finds the socket error under the store\'s error and in an AggregateError (localhost: both addresses refused)', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' });
    const wrapped = new Error('migrations: reading the database encoding failed', { cause: new AggregateError([refused], '') });
    expect(unreachableServerHint(wrapped, 'postgres://u@localhost/db')).toBe('; no server listens at localhost:5432: start PostgreSQL there, or fix the host and port in the URL (PostgreSQL listens on 5432 unless told otherwise)');
  });

  it('says a host name that does not resolve, and nothing for a refusal of the server itself', () => {
    const unknownHost = Object.assign(new Error('getaddrinfo ENOTFOUND db.internl'), { code: 'ENOTFOUND' });
    expect(unreachableServerHint(unknownHost, 'postgres://u@db.internl:6543/db')).toBe('; the host name db.internl does not resolve: fix the host in the URL');
    expect(unreachableServerHint(Object.assign(new Error('password authentication failed'), { code: '28P01' }), 'postgres://u@h/db')).toBe('');
  });
});
