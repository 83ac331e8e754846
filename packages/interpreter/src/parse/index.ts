/** The parser: NeuroScript text → plain AST. The only folder that imports ohm-js. */
export { parse, type ParseOptions, type ParseResult } from './parse.ts';
export { closeParseWorker, DEFAULT_BOUNDED_MAX_LENGTH, DEFAULT_IN_HOST_MAX_LENGTH, parseBounded, type ParseBoundedOptions } from './parse-bounded.ts';
export {
  createParseSupervisor,
  DEFAULT_PARSE_MEMORY_MB,
  DEFAULT_PARSE_TIMEOUT_MS,
  type ParseSupervisor,
  type ParseSupervisorOptions,
  type ParseSupervisorStats,
} from './parse-supervisor.ts';
export { compareDiagnostics, type Diagnostic } from './diagnostic.ts';
export { DIAGNOSTIC_CODES, type DiagnosticCode } from './diagnostic-codes.ts';
export { MAX_SOURCE_LENGTH } from './preprocess.ts';
export { MAX_SYNTAX_ERRORS } from './further-syntax-errors.ts';
