/**
 * On a Node outside the range the CLI runs on (24.21.0 or a later 24), the
 * CLI says so in one line and exits 1, instead of failing somewhere inside (node:sqlite, isolated-vm).
 * Node 20 cannot run TypeScript, so the test bundles the CLI the way
 * `pnpm build` does and runs the bundle with the machine's own Node 20.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeVersionProblem, REQUIRED_NODE, UNSUPPORTED_NODE_MAJOR } from '../src/node-version.ts';
import { spawnCli } from './spawn-cli.ts';

/** The machine's Node 20, outside the toolchain that runs the tests. */
const OLD_NODE = ['/usr/bin/node', '/usr/local/bin/node'].find((path) => existsSync(path) && execFileSync(path, ['--version'], { encoding: 'utf8' }).startsWith('v20.'));

describe('nodeVersionProblem', () => {
  it.each([
    ['20.20.2', true],
    ['24.20.9', true],
    ['24.21.0', false],
    ['24.21.1', false],
    ['24.99.0', false],
    ['25.0.0', true],
    ['26.1.0', true],
    ['100.0.0', true],
  ])('Node %s refused: %s', (version, tooOld) => {
    expect(nodeVersionProblem(version) !== undefined).toBe(tooOld);
  });

  it('enforces the range package.json engines declares', async () => {
    const manifest = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };
    expect(manifest.engines.node).toBe(`>=${REQUIRED_NODE} <${UNSUPPORTED_NODE_MAJOR}`);
  });

  it('names the range the CLI runs on', () => {
    expect(nodeVersionProblem('25.0.0')).toBe(`askloop needs Node ${REQUIRED_NODE} or a later Node 24 (not ${UNSUPPORTED_NODE_MAJOR} or newer); this is Node 25.0.0`);
  });
});

describe.runIf(OLD_NODE !== undefined)('the built CLI on Node 20', () => {
  let script = '';
  beforeAll(async () => {
    const outDir = await mkdtemp(join(tmpdir(), 'askloop-old-node-'));
    const root = fileURLToPath(new URL('..', import.meta.url));
    await build({ config: join(root, 'tsup.config.ts'), entry: [join(root, 'src/cli.ts')], outDir, silent: true, sourcemap: false, clean: false });
    script = join(outDir, 'cli.js');
  }, 60_000);

  it.each([[['--help']], [['envelope', 'parse', 'x']], [['ns', 'run', 'x.ns']]])('askloop %j prints one line naming the required version and exits 1', async (args) => {
    const result = await spawnCli(args, { node: OLD_NODE, script });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(new RegExp(`^askloop needs Node ${REQUIRED_NODE.replaceAll('.', '\\.')} or a later Node 24 \\(not 25 or newer\\); this is Node 20\\.\\d+\\.\\d+; run it with Node ${REQUIRED_NODE.replaceAll('.', '\\.')}: npx -y -p node@${REQUIRED_NODE.replaceAll('.', '\\.')} node \\S+cli\\.js .* \\(CLI_NODE_VERSION\\)\\n$`));
    // The command it gives names this file and the arguments.
    expect(result.stderr).toContain(`npx -y -p node@${REQUIRED_NODE} node ${script} ${args.join(' ')} (CLI_NODE_VERSION)`);
  });

  it('gives a command that passes each argument as it was: a task of several words, a glob, a quote', async () => {
    // Before, the arguments were joined into one `-c '…'` string unquoted: `run hello world` ran the task "hello"
    // with an extra argument, `tool.*` was a glob for the shell, and a `'` ended the string.
    const args = ['run', "hello world, it's me", '--allow', 'tool.*'];
    const result = await spawnCli(args, { node: OLD_NODE, script });
    expect(result.code).toBe(1);
    const command = /: (npx .*) \(CLI_NODE_VERSION\)\n$/.exec(result.stderr)?.[1];
    expect(command).toBe(`npx -y -p node@${REQUIRED_NODE} node ${script} run 'hello world, it'\\''s me' --allow 'tool.*'`);
    // The shell reads it back into the same words.
    const words = execFileSync('/bin/sh', ['-c', `printf '%s\\n' ${command?.replace(/^npx -y -p \S+ node /, '')}`], { encoding: 'utf8' });
    expect(words).toBe(`${[script, ...args].join('\n')}\n`);
  });
});
