/**
 * `createToolHost({ redact })`: a known secret in a tool's result or error
 * never reaches the caller (the program, so the model and the records).
 * Regression: a plugin tool that threw `'bad key ' + key` handed the key to
 * the program's OUTPUT, the next envelope and the sessions file.
 */
import { describe, expect, it } from 'vitest';
import { hostFor } from '../../test/tool-test-host.ts';
import { openSqliteStore } from '../stores/sqlite-store.ts';
import { defineToolPack } from '../registry/tool-pack.ts';
import { defineTool } from '../spec/define-tool.ts';
import type { ToolValue } from '../spec/tool-value.ts';
import { redactToolValue } from './redact-tool-output.ts';

const KEY = 'sk-test-SECRET-abc123XYZ';
const redact = (text: string): string => text.split(KEY).join('[redacted]');

const pack = defineToolPack('leak', [
  defineTool({ name: 'tool.leak.Throw', description: 'Throws an error quoting the key.', args: [] }, () => {
    throw new Error(`bad key ${KEY}`);
  }),
  defineTool({ name: 'tool.leak.Result', description: 'Returns the key in every kind of place.', args: [], returns: 'map' }, () => ({
    text: `key=${KEY}`,
    list: ['plain', [`nested ${KEY}`]],
    [KEY]: 1,
    ['__proto__']: KEY,
  }) as unknown as ToolValue),
  defineTool({ name: 'tool.leak.Write', description: 'A write returning the key.', args: [], effect: 'write' }, () => KEY),
]);

describe('createToolHost({ redact })', () => {
  it('replaces the secret in a failure message and drops the cause that holds it', async () => {
    const error = await hostFor([pack], undefined, { redact }).fail('tool.leak.Throw', []);
    expect(error.code).toBe('TOOL_FAILED');
    expect(error.tool).toBe('tool.leak.Throw');
    expect(error.message).toBe('tool.leak.Throw (pack leak) failed: bad key [redacted]');
    expect(error.cause).toBeUndefined();
    // Without it, the key is there: the test can fail.
    expect((await hostFor([pack]).fail('tool.leak.Throw', [])).message).toContain(KEY);
  });

  it('replaces the secret in every string of a result, map keys included, keeping __proto__ a key', async () => {
    const result = (await hostFor([pack], undefined, { redact }).call('tool.leak.Result', [])) as Record<string, ToolValue>;
    expect(JSON.stringify(result)).not.toContain(KEY);
    expect(result.text).toBe('key=[redacted]');
    expect(result.list).toEqual(['plain', ['nested [redacted]']]);
    expect(result['[redacted]']).toBe(1);
    expect(Object.getOwnPropertyDescriptor(result, '__proto__')?.value).toBe('[redacted]');
  });

  it("records a write's result redacted, so a replay answers without the secret", async () => {
    const stores = openSqliteStore(':memory:');
    const first = hostFor([pack], undefined, { redact, stores });
    expect(await first.call('tool.leak.Write', [])).toBe('[redacted]');
    const record = await stores.idempotence.lookup('s1', 1, 0);
    expect(JSON.stringify(record)).not.toContain(KEY);
    expect(await hostFor([pack], undefined, { redact, stores }).call('tool.leak.Write', [])).toBe('[redacted]');
    stores.close();
  });

  it('gives back the same value when nothing was replaced', () => {
    const value = { a: ['x', { b: 'y' }], n: 1 };
    expect(redactToolValue(value, redact)).toBe(value);
  });
});
