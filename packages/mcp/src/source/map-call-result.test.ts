import { describe, expect, it } from 'vitest';
import { contentText, mapCallResult } from './map-call-result.ts';

describe('mapCallResult', () => {
  it('prefers structuredContent', () => {
    expect(mapCallResult({ content: [{ type: 'text', text: 'ignored' }], structuredContent: { a: [1, { b: null }] } })).toEqual({ a: [1, { b: null }] });
  });

  it('joins text blocks with newlines', () => {
    expect(mapCallResult({ content: [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }] })).toBe('one\ntwo');
    expect(mapCallResult({ content: [] })).toBe('');
  });

  it('describes non-text blocks briefly instead of copying their data', () => {
    const text = contentText({
      content: [
        { type: 'image', mimeType: 'image/png', data: 'AAAA' },
        { type: 'resource_link', uri: 'file:///x', name: 'x' },
        { type: 'resource', resource: { uri: 'file:///y', text: 'inline text' } },
        { type: 'resource', resource: { uri: 'file:///z', blob: 'AAAA' } },
      ],
    });
    expect(text).toBe('[image image/png, 4 base64 characters]\n[resource file:///x]\ninline text\n[resource file:///z]');
  });

  it('keeps a __proto__ key of structured content as data', () => {
    const value = mapCallResult({ structuredContent: JSON.parse('{"__proto__": {"polluted": true}}') }) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
