/**
 * Imported first by the package entry: on a Node outside the range this
 * package runs on (package.json `engines`: `>=24.21.0 <25`), importing it
 * throws one clear error naming that range, instead of failing later
 * somewhere inside. On a supported Node it does nothing but compare two
 * numbers. Plain JavaScript syntax, so an old Node can run it.
 */

/** The oldest Node this package runs on (package.json `engines`). */
const REQUIRED_NODE = [24, 21, 0];
/** The first major version it does not run on: isolated-vm ships prebuilt binaries for Node 24 only. */
const UNSUPPORTED_NODE_MAJOR = 25;

const have = process.versions.node.split('.').map(Number);
const problem = `@askloop/tools needs Node ${REQUIRED_NODE.join('.')} or a later Node ${REQUIRED_NODE[0]} (not ${UNSUPPORTED_NODE_MAJOR} or newer); this is Node ${process.versions.node}`;
if ((have[0] || 0) >= UNSUPPORTED_NODE_MAJOR) throw new Error(problem);
for (let index = 0; index < REQUIRED_NODE.length; index += 1) {
  const difference = (have[index] || 0) - (REQUIRED_NODE[index] ?? 0);
  if (difference > 0) break;
  if (difference < 0) throw new Error(problem);
}
export {};
