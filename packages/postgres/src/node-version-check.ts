/**
 * Imported first by the package entry: on a Node older than the one this
 * package needs, importing it throws one clear error naming the required
 * version, instead of failing later somewhere inside. On a recent Node it
 * does nothing but compare two numbers. Plain JavaScript syntax, so an old
 * Node can run it.
 */

/** The oldest Node this package runs on (package.json `engines`). */
const REQUIRED_NODE = [24, 21, 0];

const have = process.versions.node.split('.').map(Number);
for (let index = 0; index < REQUIRED_NODE.length; index += 1) {
  const difference = (have[index] || 0) - (REQUIRED_NODE[index] ?? 0);
  if (difference > 0) break;
  if (difference < 0) {
    throw new Error(`@askloop/postgres needs Node ${REQUIRED_NODE.join('.')} or newer; this is Node ${process.versions.node}`);
  }
}
export {};
