/**
 * A real, throwaway PostgreSQL server for tests: `initdb` in a temporary
 * directory, started with `pg_ctl` on a free loopback port (unix sockets in
 * the same directory, trust authentication), stopped with `pg_ctl stop -m
 * immediate` and deleted afterwards. PostgreSQL refuses to run as root, so a
 * root test process runs the server binaries as the `postgres` user in a
 * directory chown'ed to it. Debian installs the binaries in
 * `/usr/lib/postgresql/<major>/bin` without putting them on PATH; both places
 * are searched.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A started server. */
export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` — the admin database. */
  readonly url: string;
  readonly port: number;
  readonly directory: string;
  /** Stops the server (immediate mode) and deletes its directory; safe to call twice. */
  stop(): void;
}

/** The directory holding `initdb` and `pg_ctl`, or undefined when PostgreSQL is not installed. */
export function findPostgresBin(): string | undefined {
  for (const directory of (process.env.PATH ?? '').split(path.delimiter)) {
    if (directory !== '' && existsSync(path.join(directory, 'initdb')) && existsSync(path.join(directory, 'pg_ctl'))) return directory;
  }
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const majors = readdirSync(root)
    .filter((name) => /^\d+$/.test(name) && existsSync(path.join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] === undefined ? undefined : path.join(root, majors[0], 'bin');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function postgresUser(): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

/** Starts a server; throws with the server log when it does not come up. */
export async function startPostgresServer(): Promise<PostgresServer> {
  const bin = findPostgresBin();
  if (bin === undefined) throw new Error('PostgreSQL server binaries (initdb, pg_ctl) not found; install Debian\'s postgresql package (apt-get install -y postgresql)');
  const asRoot = process.getuid?.() === 0;
  // As root the server runs as `postgres`, which must reach the directory: /tmp is open to every user, a TMPDIR may not be.
  const directory = mkdtempSync(path.join(asRoot ? '/tmp' : tmpdir(), 'askloop-pg-'));
  const data = path.join(directory, 'data');
  const log = path.join(directory, 'server.log');
  // The server's user must own the directory; 0700 keeps other users out.
  chmodSync(directory, 0o700);
  // As root, initdb and pg_ctl run as `postgres` through the spawn's uid/gid (no runuser or su, which may not be on PATH).
  const user = asRoot ? postgresUser() : undefined;
  if (user !== undefined) chownSync(directory, user.uid, user.gid);
  const as = user === undefined ? {} : { uid: user.uid, gid: user.gid, cwd: directory, env: { ...process.env, HOME: directory } };
  const tool = (name: string, args: readonly string[]) => run(path.join(bin, name), [...args], as);
  const port = await freePort();
  let started = false;
  const stop = (): void => {
    if (started) {
      started = false;
      try {
        const args = ['-D', data, '-m', 'immediate', '-w', 'stop'];
        execFileSync(path.join(bin, 'pg_ctl'), args, { stdio: 'ignore', ...as });
      } catch {
        // Already stopped: nothing to do.
      }
    }
    rmSync(directory, { recursive: true, force: true });
  };
  try {
    await tool('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']);
    const options = [
      `-c listen_addresses=127.0.0.1`,
      `-c port=${port}`,
      `-c unix_socket_directories=${directory}`,
      '-c max_connections=200',
      // A test server: durability is not what is tested, speed is welcome.
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
    ].join(' ');
    started = true;
    await tool('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', '-o', options, 'start']);
  } catch (error) {
    const text = existsSync(log) ? readFileSync(log, 'utf8') : '';
    stop();
    throw new Error(`could not start PostgreSQL: ${error instanceof Error ? error.message : String(error)}\n${text}`, { cause: error });
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, directory, stop };
}
