/**
 * @askloop/mcp: the Model Context Protocol both ways. MCP servers become
 * policy-checked tool packs (`createMcpToolSource`), and AskLoop serves
 * NeuroScript run/check and `ask` to MCP clients (`createAskLoopMcpServer`).
 */
export { MCP_ERROR_CODES, type McpErrorCode } from './errors/mcp-error-codes.ts';
export { AskLoopMcpError, isAskLoopMcpError, type AskLoopMcpErrorDetails } from './errors/askloop-mcp-error.ts';

export {
  isHttpServerConfig,
  parseMcpConfig,
  SERVER_NAME_PATTERN,
  validateServerConfig,
  type McpApprovalMode,
  type McpHttpServerConfig,
  type McpServerCommon,
  type McpServerConfig,
  type McpServersConfig,
  type McpStdioServerConfig,
} from './config/server-config.ts';

export { createMcpToolSource, type McpToolSource, type McpToolSourceOptions } from './source/create-mcp-tool-source.ts';
export { mcpPlugin, type McpPlugin } from './source/mcp-plugin.ts';
export { annotationEffect, DEFAULT_MCP_TIMEOUT_MS, mcpCapability } from './source/mcp-tool-definition.ts';
export type { McpServerStatus } from './source/mcp-connection.ts';
export { sanitizeName, sanitizeNames } from './source/sanitize-name.ts';
export { schemaArguments, schemaType, type SchemaArguments } from './source/schema-arguments.ts';
export { mapCallResult, contentText } from './source/map-call-result.ts';

export {
  createAskLoopMcpServer,
  createAskLoopMcpServerFactory,
  runReport,
  type AskFunction,
  type AskLoopMcpServerOptions,
  type AskOutcome,
  type DiagnosticReport,
  type RunReport,
} from './server/create-askloop-mcp-server.ts';
export { GUIDE_URI, NEUROSCRIPT_GUIDE } from './server/neuroscript-guide.ts';
export { serveMcpHttp, type McpHttpEndpoint } from './server/serve-http.ts';
