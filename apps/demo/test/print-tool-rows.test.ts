/**
 * `askloop ns tools` / `mcp tools` print what a server or plugin wrote (a
 * tool's description): on a terminal its control characters are escaped, as
 * any model or tool text is, so a description cannot hide its own
 * `[needs approval]` note (SGR 8) or recolour the screen. Regression: the
 * list printed them raw.
 */
import { createPolicy, defineTool } from '@askloop/tools';
import { describe, expect, it } from 'vitest';
import { printToolRows } from '../src/commands/print-tool-rows.ts';
import { captureIo } from './capture-io.ts';

const tool = defineTool({ name: 'tool.odd.Wipe', description: 'Deletes everything \u001b[8m hidden \u202e', args: [], effect: 'write', requiresApproval: true }, () => 'gone');

describe('printToolRows', () => {
  it('escapes control and bidirectional characters on a terminal', () => {
    const io = captureIo();
    io.stdoutIsTerminal = true;
    printToolRows(io, [{ spec: tool.spec, pack: 'odd' }], createPolicy({ allow: ['**'] }), false);
    expect(io.out).toContain('Deletes everything \\x1b[8m hidden \\u202e');
    expect(io.out).toContain('[needs approval]');
    expect(io.out).not.toMatch(/[\u001b\u202e]/);
  });

  it('writes them byte for byte into a pipe, where scripts read them', () => {
    const io = captureIo();
    printToolRows(io, [{ spec: tool.spec, pack: 'odd' }], createPolicy({ allow: ['**'] }), false);
    expect(io.out).toContain('Deletes everything \u001b[8m hidden \u202e');
  });
});
