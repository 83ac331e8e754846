/** The parser: NeuroScript text → plain AST. The only folder that imports ohm-js. */
export { parse, type ParseOptions, type ParseResult } from './parse.ts';
export { compareDiagnostics, type Diagnostic } from './diagnostic.ts';
export { DIAGNOSTIC_CODES, type DiagnosticCode } from './diagnostic-codes.ts';
export { MAX_SOURCE_LENGTH } from './preprocess.ts';
