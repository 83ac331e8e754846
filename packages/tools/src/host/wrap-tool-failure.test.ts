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

  it('reports a ToolError of another package copy with a code this one does not know as TOOL_FAILED, its message kept', () => {
    const foreign = Object.assign(new Error('quota of the newer store'), { code: 'FS_QUOTA_NEW', [Symbol.for('askloop.tools.error')]: true });
    const wrapped = wrapToolFailure(foreign, 'tool.demo.Foreign', 'demo');
    expect(wrapped.toJSON()).toEqual({ code: 'TOOL_FAILED', referenceCode: 21, message: 'tool.demo.Foreign (pack demo) failed: quota of the newer store', tool: 'tool.demo.Foreign', pack: 'demo' });
    expect(wrapped.cause).toBe(foreign);
  });
});
