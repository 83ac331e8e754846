import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../runtime/index.ts';
import { createHostCallHandler } from './host-call-handler.ts';
import { WALL_GRACE_MS } from './wall-grace.ts';
import type { Interpreter, ToolBridgeCallOptions, ToolCallReport } from './run-types.ts';

const unused = async (): Promise<never> => Promise.reject(new Error('unused'));
const interpreter: Interpreter = { prepare: unused, execute: unused, run: unused };
const context = { signal: new AbortController().signal, index: 0 };

function handler(approved: string[], onToolCall?: (call: ToolCallReport) => void, options: (ToolBridgeCallOptions | undefined)[] = []) {
  const called: string[] = [];
  const toolCallHandler = createHostCallHandler({
    tools: {
      call: (name, _args, callOptions) => (called.push(name), options.push(callOptions), name === 'tool.fs.fail' ? Promise.reject(Object.assign(new Error('no such file'), { code: 'FS_NOT_FOUND' })) : 'done'),
    },
    orchestrator: undefined,
    promptUser: undefined,
    interpreter,
    approvedTools: new Set(approved),
    onToolCall,
    limits: DEFAULT_LIMITS,
  });
  return { onToolCall: toolCallHandler, called };
}

describe('createHostCallHandler', () => {
  it('calls a tool the static check approved', async () => {
    const { onToolCall, called } = handler(['tool.fs.read']);
    await expect(onToolCall('tool.fs.read', [], context)).resolves.toBe('done');
    expect(called).toEqual(['tool.fs.read']);
  });

  it("tells the tools what is left of the program's wall clock: the sandbox's remainingMs less the sandbox's grace", async () => {
    const options: (ToolBridgeCallOptions | undefined)[] = [];
    const { onToolCall } = handler(['tool.fs.read'], undefined, options);
    await onToolCall('tool.fs.read', [], { ...context, remainingMs: 1_000 });
    await onToolCall('tool.fs.read', [], { ...context, remainingMs: 100 });
    await onToolCall('tool.fs.read', [], context);
    expect(options.map((given) => ({ ...given, signal: undefined }))).toEqual([{ timeLeftMs: 1_000 - WALL_GRACE_MS }, { timeLeftMs: 0 }, {}]);
    for (const given of options) expect(given?.signal).toBeInstanceOf(AbortSignal);
  });

  it('refuses a tool the static check never saw, without calling it', async () => {
    const { onToolCall, called } = handler(['tool.fs.read']);
    await expect(onToolCall('tool.fs.delete', [], context)).rejects.toMatchObject({ code: 'SCRIPT_TOOL_DENIED' });
    expect(called).toEqual([]);
  });

  it('reports each tool call with its arguments, result or error, and duration', async () => {
    const reports: ToolCallReport[] = [];
    const { onToolCall } = handler(['tool.fs.read', 'tool.fs.fail'], (call) => reports.push(call));
    await onToolCall('tool.fs.read', ['a'], context);
    await expect(onToolCall('tool.fs.fail', ['b'], context)).rejects.toMatchObject({ code: 'SCRIPT_TOOL_ERROR' });
    await expect(onToolCall('tool.fs.delete', [], context)).rejects.toMatchObject({ code: 'SCRIPT_TOOL_DENIED' });
    expect(reports.map(({ durationMs, ...rest }) => (expect(durationMs).toBeGreaterThanOrEqual(0), rest))).toEqual([
      { name: 'tool.fs.read', args: ['a'], result: 'done' },
      { name: 'tool.fs.fail', args: ['b'], error: { code: 'SCRIPT_TOOL_ERROR', kind: 'runtime', message: "tool 'tool.fs.fail': [FS_NOT_FOUND] no such file", line: 0, column: 0, frames: [] } },
      { name: 'tool.fs.delete', args: [], error: expect.objectContaining({ code: 'SCRIPT_TOOL_DENIED', kind: 'permission' }) },
    ]);
  });

  it('leaves authorisation to the tool host: an approved tool is passed on', async () => {
    const { onToolCall, called } = handler(['tool.fs.read', 'tool.fs.delete']);
    await expect(onToolCall('tool.fs.delete', [], context)).resolves.toBe('done');
    expect(called).toEqual(['tool.fs.delete']);
  });

  it('survives an observer that throws', async () => {
    const { onToolCall } = handler(['tool.fs.read'], () => {
      throw new Error('observer bug');
    });
    await expect(onToolCall('tool.fs.read', [], context)).resolves.toBe('done');
  });
});
