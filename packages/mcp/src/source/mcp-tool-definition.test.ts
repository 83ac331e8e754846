import { describe, expect, it } from 'vitest';
import { annotationEffect, mcpCapability, requiresTaskExecution, withArgumentNotes } from './mcp-tool-definition.ts';

describe('annotationEffect', () => {
  it('treats a tool without annotations as the MCP defaults say: destructive, open world', () => {
    expect(annotationEffect({}, 'destructive')).toEqual({ effect: 'external', idempotent: false, requiresApproval: true });
  });

  it('maps read-only, destructive, idempotent and closed-world hints', () => {
    expect(annotationEffect({ annotations: { readOnlyHint: true } }, 'destructive')).toEqual({ effect: 'read', idempotent: true, requiresApproval: false });
    expect(annotationEffect({ annotations: { destructiveHint: true, openWorldHint: false, idempotentHint: true } }, 'destructive')).toEqual({ effect: 'write', idempotent: true, requiresApproval: true });
    expect(annotationEffect({ annotations: { destructiveHint: false, openWorldHint: false } }, 'destructive')).toEqual({ effect: 'write', idempotent: false, requiresApproval: false });
  });

  it('follows the server approval mode', () => {
    expect(annotationEffect({ annotations: { readOnlyHint: true } }, 'always').requiresApproval).toBe(true);
    expect(annotationEffect({ annotations: { destructiveHint: true } }, 'never').requiresApproval).toBe(false);
  });
});

describe('mcpCapability', () => {
  it('scopes the call capability by the lower-case server name', () => {
    expect(mcpCapability('Everything')).toBe('mcp:call:everything');
  });
});

describe('requiresTaskExecution', () => {
  it('is true only for taskSupport "required" (a plain call answers "optional", "forbidden" and the default)', () => {
    expect(requiresTaskExecution({ execution: { taskSupport: 'required' } })).toBe(true);
    expect(requiresTaskExecution({ execution: { taskSupport: 'optional' } })).toBe(false);
    expect(requiresTaskExecution({ execution: { taskSupport: 'forbidden' } })).toBe(false);
    expect(requiresTaskExecution({ execution: {} })).toBe(false);
    expect(requiresTaskExecution({})).toBe(false);
  });
});

describe('withArgumentNotes', () => {
  it('puts the notes at the end of the first line, the one the catalogue shows', () => {
    expect(withArgumentNotes('Create entities', 'entities: list of string')).toBe('Create entities. Arguments: entities: list of string');
    expect(withArgumentNotes('Create entities.\nMore words.', 'x: "a"|"b"')).toBe('Create entities. Arguments: x: "a"|"b"\nMore words.');
    expect(withArgumentNotes('Anything', '')).toBe('Anything');
  });
});
