import { TOOL_ERROR_CODES, ToolError } from '@askloop/tools';
import { describe, expect, it } from 'vitest';
import { AskLoopMcpError } from '../errors/askloop-mcp-error.ts';
import { MCP_ERROR_CODES } from '../errors/mcp-error-codes.ts';
import { codedCause, createToolFailureLog } from './tool-failure-causes.ts';

/** A failed MCP call as the tool host throws it: its ToolError around the handler's, around the connection's. */
const mcpFailure = (code: 'MCP_REQUEST_FAILED' | 'MCP_TIMEOUT', message: string): ToolError => {
  const mcp = new AskLoopMcpError(code, message, { server: 'kg', tool: 'read_graph', cause: new Error('MCP error -32000: Connection closed') });
  const handler = new ToolError(code === 'MCP_TIMEOUT' ? 'TOOL_TIMEOUT' : 'TOOL_FAILED', message, { tool: 'tool.kg.read_graph', cause: mcp });
  return new ToolError(handler.code, `tool.kg.read_graph (pack mcp.kg): ${message}`, { tool: 'tool.kg.read_graph', cause: handler });
};

describe('codedCause', () => {
  it('finds the innermost documented code: the MCP one under the tool host\'s', () => {
    expect(codedCause(mcpFailure('MCP_REQUEST_FAILED', 'server died'))).toEqual({ code: 'MCP_REQUEST_FAILED', fix: MCP_ERROR_CODES.MCP_REQUEST_FAILED.fix });
  });

  it("takes a tool's own code when no MCP error is under it, and nothing from an uncoded error", () => {
    expect(codedCause(new ToolError('FS_NOT_FOUND', 'no such file'))).toEqual({ code: 'FS_NOT_FOUND', fix: TOOL_ERROR_CODES.FS_NOT_FOUND.fix });
    expect(codedCause(new Error('plain'))).toBeUndefined();
    expect(codedCause(Object.assign(new Error('made up'), { code: 'MCP_MADE_UP' }))).toBeUndefined();
    expect(codedCause('a string')).toBeUndefined();
  });

  it('stops on a cause chain that loops', () => {
    const looped = new ToolError('TOOL_FAILED', 'loops');
    Object.defineProperty(looped, 'cause', { value: looped });
    expect(codedCause(looped)).toEqual({ code: 'TOOL_FAILED', fix: TOOL_ERROR_CODES.TOOL_FAILED.fix });
  });
});

describe('createToolFailureLog', () => {
  it("gives the cause of the latest failure whose message the run's error carries", () => {
    const log = createToolFailureLog();
    const first = mcpFailure('MCP_TIMEOUT', "MCP server 'kg' tool 'read_graph' did not answer within 500 ms");
    log.record(first);
    log.record(mcpFailure('MCP_REQUEST_FAILED', "MCP server 'kg' failed calling tool 'read_graph': gone"));
    expect(log.causeOf(`tool 'tool.kg.read_graph': [TOOL_TIMEOUT] ${first.message}`)?.code).toBe('MCP_TIMEOUT');
    expect(log.causeOf('something else failed')).toBeUndefined();
  });

  it('remembers a bounded number of failures, the latest', () => {
    const log = createToolFailureLog();
    for (let index = 0; index < 100; index += 1) log.record(new ToolError('TOOL_FAILED', `failure ${index};`));
    expect(log.causeOf('failure 99;')?.code).toBe('TOOL_FAILED');
    expect(log.causeOf('failure 0;')).toBeUndefined();
  });
});
