/**
 * The Node version check every entry point runs first. Written in plain
 * JavaScript syntax (no type annotations past the signature, nothing newer
 * than Node 18 can parse) because its whole point is to run on a Node that
 * is too old to run the rest.
 */

/** The oldest Node the CLI runs on (package.json `engines`). */
export const REQUIRED_NODE = '24.21.0';

/**
 * Returns one line saying the Node is too old, or undefined when `version`
 * (as in `process.versions.node`) is at least {@link REQUIRED_NODE}.
 */
export function nodeVersionProblem(version: string): string | undefined {
  const have = version.split('.').map(Number);
  const need = REQUIRED_NODE.split('.').map(Number);
  for (let index = 0; index < need.length; index += 1) {
    const difference = (have[index] || 0) - (need[index] || 0);
    if (difference > 0) return undefined;
    if (difference < 0) return `askloop needs Node ${REQUIRED_NODE} or newer; this is Node ${version}`;
  }
  return undefined;
}
