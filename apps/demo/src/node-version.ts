/**
 * The Node version check every entry point runs first. Written in plain
 * JavaScript syntax (no type annotations past the signature, nothing newer
 * than Node 18 can parse) because its whole point is to run on a Node that
 * is too old to run the rest.
 */

/** The oldest Node the CLI runs on (package.json `engines`: `>=24.21.0 <25`). */
export const REQUIRED_NODE = '24.21.0';

/**
 * The first major version the CLI does not run on (package.json `engines`):
 * isolated-vm ships prebuilt binaries for Node 24 only.
 */
export const UNSUPPORTED_NODE_MAJOR = 25;

/**
 * Returns one line saying the Node is not one the CLI runs on, or undefined
 * when `version` (as in `process.versions.node`) is at least
 * {@link REQUIRED_NODE} and older than {@link UNSUPPORTED_NODE_MAJOR}.
 */
export function nodeVersionProblem(version: string): string | undefined {
  const have = version.split('.').map(Number);
  const need = REQUIRED_NODE.split('.').map(Number);
  const problem = `askloop needs Node ${REQUIRED_NODE} or a later Node ${need[0]} (not ${UNSUPPORTED_NODE_MAJOR} or newer); this is Node ${version}`;
  if ((have[0] || 0) >= UNSUPPORTED_NODE_MAJOR) return problem;
  for (let index = 0; index < need.length; index += 1) {
    const difference = (have[index] || 0) - (need[index] || 0);
    if (difference > 0) return undefined;
    if (difference < 0) return problem;
  }
  return undefined;
}
