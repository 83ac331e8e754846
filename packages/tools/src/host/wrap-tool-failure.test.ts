import { describe, expect, it } from 'vitest';
import { ToolError } from '../errors/tool-error.ts';
import { wrapToolFailure } from './wrap-tool-failure.ts';

describe('wrapToolFailure', () => {
  it('keeps a ToolError code and names the tool and pack', () => {
    expect(wrapToolFailure(new ToolError('TOOL_VALUE_INVALID', 'bad unit'), 'tool.units.Convert', 'units').toJSON()).toEqual({
      code: 'TOOL_VALUE_INVALID',
      referenceCode: 41,
      message: 'tool.units.Convert: bad unit (pack units)',
      tool: 'tool.units.Convert',
      pack: 'units',
    });
  });

  it('keeps every field of a ToolError it names, the grant of a denial too', () => {
    const denial = new ToolError('HTTP_ADDRESS_DENIED', 'refused: add the grant net:read:10.0.0.7 to the policy', { capability: 'net:read:10.0.0.7', grant: 'net:read:10.0.0.7' });
    expect(wrapToolFailure(denial, 'tool.http.Fetch', 'http').toJSON()).toMatchObject({ code: 'HTTP_ADDRESS_DENIED', tool: 'tool.http.Fetch', pack: 'http', capability: 'net:read:10.0.0.7', grant: 'net:read:10.0.0.7' });
  });

  it('reports a ToolError of another package copy with a code this one does not know as TOOL_FAILED, its message kept', () => {
    const foreign = Object.assign(new Error('quota of the newer store'), { code: 'FS_QUOTA_NEW', [Symbol.for('askloop.tools.error')]: true });
    const wrapped = wrapToolFailure(foreign, 'tool.demo.Foreign', 'demo');
    expect(wrapped.toJSON()).toEqual({ code: 'TOOL_FAILED', referenceCode: 21, message: 'tool.demo.Foreign (pack demo) failed: quota of the newer store', tool: 'tool.demo.Foreign', pack: 'demo' });
    expect(wrapped.cause).toBe(foreign);
  });

  it.each([
    ['an Error', new Error('disk on fire'), 'disk on fire'],
    ['a plain object with code and message', { code: 'E_QUOTA', message: 'quota spent' }, 'E_QUOTA: quota spent'],
    ['a plain object with a message', { message: 'no luck' }, 'no luck'],
    ['a plain object without a message', { status: 503 }, '{"status":503}'],
    ['a string', 'plain words', 'plain words'],
    ['a long object', { text: 'x'.repeat(500) }, `{"text":"${'x'.repeat(191)}…`],
  ])('words what a handler threw: %s (not [object Object])', (_label, thrown, detail) => {
    expect(wrapToolFailure(thrown, 'tool.demo.Boom', 'demo')).toMatchObject({ code: 'TOOL_FAILED', message: `tool.demo.Boom (pack demo) failed: ${detail}` });
  });

  it('words an object that has no JSON (a cycle) as String does', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(wrapToolFailure(cyclic, 'tool.demo.Boom', 'demo').message).toBe('tool.demo.Boom (pack demo) failed: [object Object]');
  });
});
