/**
 * vitest globalSetup: one real PostgreSQL server for the whole test run,
 * stopped when the run ends (also when it fails). Test files get its admin
 * URL with `inject('postgresUrl')` and make their own database in it.
 */
import type { TestProject } from 'vitest/node';
import { startPostgresServer, type PostgresServer } from '../src/testing/postgres-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

let server: PostgresServer | undefined;

/** Starts the server and hands its admin URL to the test files. */
export async function setup(project: TestProject): Promise<void> {
  server = await startPostgresServer();
  // If the runner dies without calling teardown, still leave no server behind.
  process.once('exit', () => server?.stop());
  project.provide('postgresUrl', server.url);
}

/** Stops the server and deletes its directory. */
export function teardown(): void {
  server?.stop();
  server = undefined;
}
