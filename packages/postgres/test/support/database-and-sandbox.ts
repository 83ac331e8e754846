/**
 * What most PostgreSQL test files start with: a throwaway database and one
 * sandbox pool, made before the file's tests and dropped after them.
 */
import { createSandboxPool, type SandboxPool } from '@askloop/interpreter';
import { afterAll, beforeAll } from 'vitest';
import { createTestDatabase, type TestDatabase } from './test-database.ts';

/** The file's database and sandbox pool, each read once `beforeAll` has made them. */
export interface DatabaseAndSandbox {
  readonly database: () => TestDatabase;
  readonly sandbox: () => SandboxPool;
}

/** Registers the file's `beforeAll` and `afterAll` for a database and a pool of `workers` sandbox workers. */
export function databaseAndSandbox(workers = 1): DatabaseAndSandbox {
  let database: TestDatabase | undefined;
  let sandbox: SandboxPool | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    sandbox = createSandboxPool({ workers });
  });
  afterAll(async () => {
    await sandbox?.close();
    await database?.drop();
  });
  const made = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('read before beforeAll ran');
    return value;
  };
  return { database: () => made(database), sandbox: () => made(sandbox) };
}
