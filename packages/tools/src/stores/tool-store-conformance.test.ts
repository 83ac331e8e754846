/**
 * The tool store conformance table (`@askloop/tools/testing`) on the SQLite
 * store: a new file per case, `connect()` a second connection to it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { toolStoreCases } from '../testing/index.ts';
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
