/** The SQLite transcript store's arguments, checked before a file is opened. */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteTranscriptStore } from './sqlite-transcript-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'askloop-store-args-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('createSqliteTranscriptStore arguments', () => {
  it("refuses an option it does not have (readonly for readOnly) before opening anything: no file is created or migrated", () => {
    const file = join(dir, 'never.db');
    expect(() => createSqliteTranscriptStore(file, { readonly: true } as never)).toThrow(
      expect.objectContaining({ code: 'LOOP_CONFIG_INVALID', message: "createSqliteTranscriptStore: there is no option 'readonly'; did you mean 'readOnly'? (the options: busyTimeoutMs, clock, readOnly)" }),
    );
    expect(existsSync(file)).toBe(false);
  });

  it('refuses a first argument that is neither a path nor a connection', () => {
    expect(() => createSqliteTranscriptStore(42 as never)).toThrow(
      expect.objectContaining({ code: 'LOOP_CONFIG_INVALID', message: "createSqliteTranscriptStore: the first argument is a file path (or ':memory:') or a node:sqlite DatabaseSync, got number" }),
    );
    expect(() => createSqliteTranscriptStore('')).toThrow(expect.objectContaining({ code: 'LOOP_CONFIG_INVALID', message: expect.stringContaining('got an empty path') }));
  });

  it('still opens a file with the options it has, one given as undefined too', async () => {
    const store = createSqliteTranscriptStore(join(dir, 'ok.db'), { busyTimeoutMs: 100, readOnly: undefined });
    expect(await store.listSessions()).toEqual([]);
    await store.close();
  });
});
