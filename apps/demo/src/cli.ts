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
const { runCli } = await import('./run-cli.ts');
await runCli();
