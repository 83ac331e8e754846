/** Static checks run before anything executes. */
export { check } from './check.ts';
export { parseAndCheck, type ParseAndCheckResult } from './parse-and-check.ts';
export type { CheckContext } from './check-context.ts';
export { findToolCalls, MAX_TOOL_SUGGESTIONS } from './tool-check.ts';
export { staticArguments, staticValue } from './static-arguments.ts';
export { findDuplicateFunctions } from './duplicate-functions.ts';
export { findFunctionCallProblems, type FunctionCallContext } from './function-calls.ts';
