import { describe, expect, it } from 'vitest';
import { annotationEffect, mcpCapability } from './mcp-tool-definition.ts';

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
