/**
 * Test helper: a fresh SQLite store file in a temp directory for each test,
 * closed and deleted afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { Clock } from '../src/clock.ts';
import { openSqliteStore, type SqliteToolStore } from '../src/stores/sqlite-store.ts';

/** Live view of the current test's store and directory. */
export interface TempStore {
  readonly stores: SqliteToolStore;
  readonly directory: string;
}

/** Registers hooks that give every test its own store file. */
export function useTempStore(clock?: Clock): TempStore {
  let directory = '';
  let stores: SqliteToolStore | undefined;
  beforeEach(() => {
    directory = mkdtempSync(path.join(tmpdir(), 'askloop-tools-'));
    stores = openSqliteStore(path.join(directory, 'tools.sqlite'), clock === undefined ? {} : { clock });
  });
  afterEach(() => {
    stores?.close();
    rmSync(directory, { recursive: true, force: true });
  });
  return {
    get stores() {
      if (stores === undefined) throw new Error('useTempStore: no store outside a test');
      return stores;
    },
    get directory() {
      return directory;
    },
  };
}
