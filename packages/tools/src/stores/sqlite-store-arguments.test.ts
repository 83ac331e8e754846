/**
 * `openSqliteStore` and `applyMigrations` refuse arguments of the wrong kind
 * with their typed errors (review: `openSqliteStore(5)` failed on
 * "fileOrDatabase.location is not a function", a misspelt option was ignored,
 * a `busyTimeoutMs` of text failed as STORE_FAILED quoting node:sqlite).
 */
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../clock.ts';
import { applyMigrations, openDatabase } from './sqlite-database.ts';
import { openSqliteStore } from './sqlite-store.ts';

const refusal = (make: () => { close?: () => void } | unknown): [string | undefined, string] | undefined => {
  try {
    const made = make() as { close?: () => void };
    made.close?.();
  } catch (error) {
    return [(error as { code?: string }).code, (error as Error).message];
  }
  return undefined;
};

describe('openSqliteStore arguments', () => {
  it('refuses what is neither a file name nor an open connection (STORE_ARGUMENT_INVALID)', () => {
    expect(refusal(() => openSqliteStore(5 as never))).toEqual(['STORE_ARGUMENT_INVALID', 'openSqliteStore() takes a file name or an open DatabaseSync of node:sqlite (openDatabase(file)), got number 5']);
    expect(refusal(() => openSqliteStore({ file: 'x.sqlite' } as never))?.[1]).toBe('openSqliteStore() takes a file name or an open DatabaseSync of node:sqlite (openDatabase(file)), got an object that is not one');
    const database = openDatabase(':memory:');
    database.close();
    expect(refusal(() => openSqliteStore(database))).toEqual(['STORE_ARGUMENT_INVALID', 'openSqliteStore() takes a file name or an open DatabaseSync, got one that is closed']);
  });

  it('refuses a misspelt option or one of the wrong kind, naming it', () => {
    expect(refusal(() => openSqliteStore(':memory:', { clok: createManualClock() } as never))).toEqual(['STORE_ARGUMENT_INVALID', "openSqliteStore(): unknown option 'clok'; did you mean 'clock'? (the options are clock, busyTimeoutMs)"]);
    expect(refusal(() => openSqliteStore(':memory:', { busyTimeoutMs: '5000' as never }))).toEqual(['STORE_ARGUMENT_INVALID', 'openSqliteStore(): busyTimeoutMs must be a whole number >= 0, got "5000"']);
    expect(refusal(() => openSqliteStore(':memory:', { clock: Date.now as never }))).toEqual(['STORE_ARGUMENT_INVALID', 'openSqliteStore(): clock must be a clock (an object with now), got a function']);
    expect(refusal(() => openSqliteStore(':memory:', 5 as never))?.[1]).toBe('openSqliteStore(): its options are an object (clock, busyTimeoutMs), got 5');
  });

  it('takes a file name, an open connection and the documented options', () => {
    expect(refusal(() => openSqliteStore(':memory:', { clock: createManualClock(), busyTimeoutMs: 0 }))).toBeUndefined();
    const database = openDatabase(':memory:');
    expect(refusal(() => openSqliteStore(database))).toBeUndefined();
    database.close();
  });
});

describe('applyMigrations arguments', () => {
  it('refuses a database, owner or list of the wrong kind (STORE_FAILED, as for a malformed list)', () => {
    const database = openDatabase(':memory:');
    try {
      expect(refusal(() => applyMigrations(':memory:' as never, 'app', []))).toEqual(['STORE_FAILED', 'applyMigrations needs an open DatabaseSync of node:sqlite (openDatabase(file)), got a string']);
      expect(refusal(() => applyMigrations(database, 5 as never, []))).toEqual(['STORE_FAILED', 'applyMigrations needs a non-empty owner name, e.g. "controller", got number']);
      expect(refusal(() => applyMigrations(database, 'app', { version: 1 } as never))).toEqual(['STORE_FAILED', 'applyMigrations needs a list of migrations { version, name, sql }, got object']);
      expect(applyMigrations(database, 'app', [{ version: 1, name: 'init', sql: 'CREATE TABLE t (x)' }])).toBe(1);
    } finally {
      database.close();
    }
  });
});
