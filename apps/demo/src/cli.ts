/**
 * The `askloop` executable. It checks the Node version before anything else
 * loads (so an old Node gets one line, not a failure inside a worker), then
 * loads the rest. Keep this file's static imports to `node-version.ts`.
 */
import { nodeVersionProblem } from './node-version.ts';

const problem = nodeVersionProblem(process.versions.node);
if (problem !== undefined) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
// Reuse V8's compiled code across runs (a cache directory under the OS temp dir): start-up is most of a short command's time.
(await import('node:module')).enableCompileCache?.();
const { runCli } = await import('./run-cli.ts');
await runCli();
