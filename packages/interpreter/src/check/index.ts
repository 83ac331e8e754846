/** Static checks run before anything executes. */
export { check } from './check.ts';
export { parseAndCheck, type ParseAndCheckResult } from './parse-and-check.ts';
export type { CheckContext, ToolPolicy } from './check-context.ts';
export { canonicalToolName, matchToolGlob } from './tool-glob.ts';
export { findToolCalls, policyDenial } from './tool-check.ts';
export { nearestName } from './nearest-name.ts';
