/**
 * @askloop/mcp: the Model Context Protocol both ways. MCP servers become
 * policy-checked tool packs (`createMcpToolSource`), and AskLoop serves
 * NeuroScript run/check and `ask` to MCP clients (`createAskLoopMcpServer`).
 */
export { MCP_ERROR_CODES, type McpErrorCode } from './errors/mcp-error-codes.ts';
export { AskLoopMcpError, isAskLoopMcpError, type AskLoopMcpErrorDetails } from './errors/askloop-mcp-error.ts';

export {
  parseMcpConfig,
  type McpApprovalMode,
  type McpHttpServerConfig,
  type McpServerCommon,
  type McpServerConfig,
  type McpServersConfig,
  type McpStdioServerConfig,
} from './config/server-config.ts';

export { createMcpToolSource, type McpToolSource, type McpToolSourceOptions } from './source/create-mcp-tool-source.ts';
export { mcpPlugin, type McpPlugin } from './source/mcp-plugin.ts';
export { DEFAULT_MCP_MAX_RESULT_BYTES, DEFAULT_MCP_START_TIMEOUT_MS, DEFAULT_MCP_TIMEOUT_MS, mcpCapability } from './source/mcp-tool-definition.ts';
export type { McpServerStatus } from './source/mcp-connection.ts';

export {
  createAskLoopMcpServer,
  createAskLoopMcpServerFactory,
  type AskFunction,
  type AskLoopMcpServerOptions,
  type AskOutcome,
  type DiagnosticReport,
  type RunErrorReport,
  type RunReport,
} from './server/create-askloop-mcp-server.ts';
export { GUIDE_URI, NEUROSCRIPT_GUIDE } from './server/neuroscript-guide.ts';
export { serveMcpHttp, type McpHttpEndpoint } from './server/serve-http.ts';
export { serveMcpStdio } from './server/serve-stdio.ts';
