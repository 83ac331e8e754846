/**
 * A read that nothing records or journals is not encoded or redacted as a record's arguments: that text went unused,
 * and for a large argument (a list of 100,000 maps sent to a pure tool that refused it at once) it held the host's
 * thread about 0.5 s per call. A write, and a read a continuing run looks up or that is journaled, still get it.
 */
import { describe, expect, it } from 'vitest';
import { hostFor } from '../../test/tool-test-host.ts';
import { createMemoryTools } from '../packs/memory-tools.ts';
import { createStringTools } from '../packs/string-tools.ts';
import { openSqliteStore } from '../stores/sqlite-store.ts';

/** A `redact` that notes every text it is shown and hides nothing. */
function watchingRedact(): { redact: (text: string) => string; seen: string[] } {
  const seen: string[] = [];
  return { seen, redact: (text) => (seen.push(text), text) };
}

describe('the arguments of a call as a record keeps them', () => {
  it('are not made for a pure read that nothing records: its argument is never redacted as a record’s', async () => {
    const { redact, seen } = watchingRedact();
    const host = hostFor([createStringTools()], undefined, { redact });
    expect(await host.call('tool.str.ToUpper', ['argument-text'])).toBe('ARGUMENT-TEXT');
    expect(seen).toEqual(['ARGUMENT-TEXT']);
  });

  it('are made for a write, which is recorded with them', async () => {
    const stores = openSqliteStore(':memory:');
    try {
      const { redact, seen } = watchingRedact();
      const host = hostFor([createMemoryTools()], undefined, { redact, stores });
      expect(await host.call('tool.memory.CAS', ['/k', 0, 'written-text'])).toEqual([true, 1]);
      expect(seen).toContain('written-text');
      expect((await stores.idempotence.lookup('s1', 1, 0))?.argumentsJson).toContain('written-text');
    } finally {
      stores.close();
    }
  });
});
