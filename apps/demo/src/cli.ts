/**
 * The `askloop` executable. It checks the Node version before anything else
 * loads (so an old Node gets one line, not a failure inside a worker), then
 * loads the rest. Keep this file's static imports to `node-version.ts` and `shell-quote.ts`, which import nothing.
 */
import { nodeVersionProblem, REQUIRED_NODE } from './node-version.ts';
import { shellQuote } from './shell-quote.ts';

const problem = nodeVersionProblem(process.versions.node);
if (problem !== undefined) {
  // What to run instead: this file on a Node 24 from the npm registry (the quick start's own way of getting one), with
  // the same arguments, each quoted once: npx hands the words after `node` to it as they are, with no shell between
  // (a `-c '…'` string joined them unquoted, so a task of two words became two arguments and a glob was expanded).
  const words = [process.argv[1] ?? 'cli.js', ...process.argv.slice(2)].map(shellQuote).join(' ');
  const again = `npx -y -p node@${REQUIRED_NODE} node ${words}`;
  process.stderr.write(`${problem}; run it with Node ${REQUIRED_NODE}: ${again} (CLI_NODE_VERSION)\n`);
  process.exit(1);
}
// Reuse V8's compiled code across runs (a cache directory under the OS temp dir): start-up is most of a short command's time.
(await import('node:module')).enableCompileCache?.();
const { runCli } = await import('./run-cli.ts');
await runCli();
