/**
 * The tool store conformance table (`@askloop/tools/testing`) on the SQLite
 * store: a new file per case, `connect()` a second connection to it; then
 * on a pack's view of it (`scopeStoresToPack`, what a plugin's tools get as
 * `context.stores`), which must behave, and refuse bad arguments, the same.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { toolStoreCases } from '../testing/index.ts';
import { scopeStoresToPack } from './pack-scoped-stores.ts';
import { openSqliteStore, type SqliteToolStore } from './sqlite-store.ts';

const directory = mkdtempSync(path.join(tmpdir(), 'askloop-store-cases-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
let files = 0;

describe('tool store conformance: SQLite file', () => {
  it.each(toolStoreCases.map((testCase) => [testCase.name, testCase] as const))('%s', (_name, testCase) =>
    testCase.run((clock) => {
      const file = path.join(directory, `case-${++files}.sqlite`);
      const opened: SqliteToolStore[] = [openSqliteStore(file, { clock })];
      return {
        stores: opened[0]!,
        connect: () => {
          const store = openSqliteStore(file, { clock });
          opened.push(store);
          return store;
        },
        close: () => {
          for (const store of opened) store.close();
        },
      };
    }),
  );
});

describe("tool store conformance: a pack's scoped view of a SQLite file", () => {
  it.each(toolStoreCases.map((testCase) => [testCase.name, testCase] as const))('%s', (_name, testCase) =>
    testCase.run((clock) => {
      const file = path.join(directory, `case-${++files}.sqlite`);
      const opened: SqliteToolStore[] = [openSqliteStore(file, { clock })];
      return {
        stores: scopeStoresToPack(opened[0]!, 'plugin'),
        connect: () => {
          const store = openSqliteStore(file, { clock });
          opened.push(store);
          return scopeStoresToPack(store, 'plugin');
        },
        close: () => {
          for (const store of opened) store.close();
        },
      };
    }),
  );
});
