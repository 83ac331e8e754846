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
  defineTool({ name: 'tool.leak.Send', description: 'A write given a value, which it counts.', args: [{ name: 'value', type: 'string' }], effect: 'write' }, () => {
    sent += 1;
    return sent;
  }),
]);
let sent = 0;

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

  it("drops a denial's grant when it hides a secret in it (the hidden grant names another scope), and keeps one that holds none", async () => {
    const notes = defineToolPack('notes', [
      defineTool({ name: 'tool.notes.Write', description: 'Writes a note.', args: [{ name: 'name', type: 'string' }], capabilities: ['notes:write'], scopes: (args) => [{ resource: 'notes', verbs: ['write'], scopes: [String(args.name)] }] }, () => null),
    ]);
    const error = await hostFor([notes], { allow: ['**'], grants: ['notes:write:other'] }, { redact }).fail('tool.notes.Write', [`n ${KEY}`]);
    expect([error.code, error.grant]).toEqual(['POLICY_CAPABILITY_MISSING', undefined]);
    expect(error.capability).not.toContain(KEY);
    expect(error.message).not.toContain(KEY);
    // A grant without the secret is kept, though the message was hidden elsewhere (the tool's own words).
    const kept = await hostFor([notes], { allow: ['**'], grants: ['notes:write:other'] }, { redact }).fail('tool.notes.Write', ['n']);
    expect([kept.code, kept.grant]).toEqual(['POLICY_CAPABILITY_MISSING', 'notes:write:n']);
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

  it("records a write's arguments redacted (a key the program built and passed it), and a run continuing it still matches", async () => {
    const stores = openSqliteStore(':memory:');
    sent = 0;
    expect(await hostFor([pack], undefined, { redact, stores }).call('tool.leak.Send', [`with ${KEY}`])).toBe(1);
    const record = await stores.idempotence.lookup('s1', 1, 0);
    expect(record?.argumentsJson).toBe('{"args":{"value":"with [redacted]"},"rest":[]}');
    // The same call again (a run of the turn continued after a crash) is answered from its record: it does not act twice.
    expect(await hostFor([pack], undefined, { redact, stores, continuesRun: true }).call('tool.leak.Send', [`with ${KEY}`])).toBe(1);
    expect(sent).toBe(1);
    stores.close();
  });

  it('gives back the same value when nothing was replaced', () => {
    const value = { a: ['x', { b: 'y' }], n: 1 };
    expect(redactToolValue(value, redact)).toBe(value);
  });
});

describe('createToolHost({ redact }): what a replay answers and what a long thrown value shows', () => {
  const KEY2 = 'acme-live-7Hq2Lm9Xz4Pw';
  const hide = (text: string): string => text.split(KEY2).join('[redacted]');
  const leaky = defineToolPack('leaky', [
    defineTool({ name: 'tool.leaky.Write', description: 'A write returning the key.', args: [], effect: 'write' }, () => `token ${KEY2}`),
    defineTool({ name: 'tool.leaky.Throw', description: 'Throws a plain object whose JSON puts the key at the cut.', args: [] }, () => {
      throw { detail: 'x'.repeat(170), key: KEY2 };
    }),
  ]);

  it("answers a write from a record another host wrote unredacted with the secret replaced", async () => {
    const stores = openSqliteStore(':memory:');
    expect(await hostFor([leaky], undefined, { stores }).call('tool.leaky.Write', [])).toBe(`token ${KEY2}`);
    // Regression: the record's result came back as stored, key and all.
    expect(await hostFor([leaky], undefined, { stores, redact: hide }).call('tool.leaky.Write', [])).toBe('token [redacted]');
    stores.close();
  });

  it('redacts a thrown value before cutting its JSON short, and keeps no cause holding the secret', async () => {
    const error = await hostFor([leaky], undefined, { redact: hide }).fail('tool.leaky.Throw', []);
    // Regression: cut at 200 characters first, the message kept `"key":"acme-live-…` and its cause the whole key.
    expect(error.message).not.toContain('acme-live');
    expect(error.cause).toBeUndefined();
    expect(JSON.stringify(error)).not.toContain('acme-live');
  });
});

describe('createToolHost({ redactionMarker }): writing back what was hidden', () => {
  const KEY3 = 'acme-live-7Hq2Lm9Xz4Pw';
  const hide = (text: string): string => text.split(KEY3).join('[REDACTED]');
  const files = new Map<string, string>([['.env', `A=1\nACME_API_KEY=${KEY3}\n`]]);
  const fsPack = defineToolPack('file', [
    defineTool({ name: 'tool.file.Read', description: 'Reads a file.', args: [{ name: 'path', type: 'string' }], returns: 'string' }, (args) => files.get(String(args.path)) ?? ''),
    defineTool({ name: 'tool.file.Write', description: 'Writes a file.', args: [{ name: 'path', type: 'string' }, { name: 'text', type: 'string' }], effect: 'write' }, (args) => {
      files.set(String(args.path), String(args.text));
      return null;
    }),
  ]);

  it('refuses to write back text holding the mark once a result of the run had a secret hidden, and leaves the file as it was', async () => {
    const host = hostFor([fsPack], undefined, { redact: hide, redactionMarker: '[REDACTED]' });
    const read = (await host.call('tool.file.Read', ['.env'])) as string;
    expect(read).toBe('A=1\nACME_API_KEY=[REDACTED]\n');
    const error = await host.fail('tool.file.Write', ['.env', `${read}B=2\n`]);
    expect(error.code).toBe('TOOL_ARGUMENT_REDACTED');
    expect(error.message).toContain('writing it would replace the secret with [REDACTED]');
    expect(files.get('.env')).toBe(`A=1\nACME_API_KEY=${KEY3}\n`);
    // A write that does not carry the mark goes ahead.
    expect(await host.call('tool.file.Write', ['notes.txt', 'B=2\n'])).toBe(null);
  });

  it('refuses it from the first call when the program itself had a secret hidden (secretHidden: a key its model wrote)', async () => {
    const host = hostFor([fsPack], undefined, { redact: hide, redactionMarker: '[REDACTED]', secretHidden: true });
    const error = await host.fail('tool.file.Write', ['.env', 'ACME_API_KEY=[REDACTED]\n']);
    expect(error.code).toBe('TOOL_ARGUMENT_REDACTED');
    expect(error.message).toContain('from the program itself');
    expect(files.get('.env')).toBe(`A=1\nACME_API_KEY=${KEY3}\n`);
  });

  it('lets the mark through when nothing of the run was hidden (the text may hold it for its own reasons)', async () => {
    const host = hostFor([fsPack], undefined, { redact: hide, redactionMarker: '[REDACTED]' });
    expect(await host.call('tool.file.Write', ['doc.txt', 'a [REDACTED] passage'])).toBe(null);
  });
});

describe('redactToolValue on keys the redaction makes alike', () => {
  it('keeps both entries, numbering the hidden one', () => {
    const hide = (text: string): string => text.split('SECRET-KEY-1').join('[REDACTED]');
    const value = { 'a SECRET-KEY-1': 1, 'a [REDACTED]': 2, 'b SECRET-KEY-1': 3 } as Record<string, ToolValue>;
    expect(redactToolValue(value, hide)).toEqual({ 'a [REDACTED] (2)': 1, 'a [REDACTED]': 2, 'b [REDACTED]': 3 });
    // The key it would be made like comes first, unchanged: the copy starts with it, in its place.
    const later = { 'a [REDACTED]': 2, n: { deep: 'no secret' }, 'a SECRET-KEY-1': 1 } as Record<string, ToolValue>;
    const copied = redactToolValue(later, hide) as Record<string, ToolValue>;
    expect(Object.entries(copied)).toEqual([['a [REDACTED]', 2], ['n', { deep: 'no secret' }], ['a [REDACTED] (2)', 1]]);
    expect(copied['n']).toBe(later['n']);
  });
});
