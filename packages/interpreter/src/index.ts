/**
 * @askloop/interpreter. Not built yet: see README.md
 * for what will live here. The package exists so the workspace, its build and
 * the dependency-direction check already cover it.
 */
export const PACKAGE_STATUS = 'skeleton' as const;

// Front end: AST types and traversal (src/ast).
export * from './ast/index.ts';

// Front end: parser and static checks (src/parse, src/check).
export { parse, compareDiagnostics, DIAGNOSTIC_CODES, NUMERIC_CODES, MAX_SOURCE_LENGTH } from './parse/index.ts';
export type { ParseOptions, ParseResult, Diagnostic, DiagnosticCode } from './parse/index.ts';
export { check, parseAndCheck, canonicalToolName, matchToolGlob, findToolCalls, policyDenial, nearestName } from './check/index.ts';
export type { CheckContext, ToolPolicy, ParseAndCheckResult } from './check/index.ts';

// The tool interface the checker uses (implemented by @askloop/tools).
export type { ToolArgumentSignature, ToolCatalog, ToolSignature, ToolValueType } from './tool-signature.ts';
