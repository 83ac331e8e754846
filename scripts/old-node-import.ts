/**
 * For the packages' tests: imports a workspace package, built the way
 * `pnpm build` builds it, with another Node, the way a user's project
 * imports it after installing it. Each package's entry runs its Node version
 * check first, so on Node 20 the import must fail with that check's one
 * error; a static import of something Node 20 lacks (`node:sqlite`, a named
 * export of a built-in it does not have) fails earlier, when the bundle is
 * linked, with an error that names no version.
 *
 * Tests run on the sources (no `dist/` before `pnpm test`), so this builds
 * the package and the workspace packages its bundle imports, each with its
 * own tsup config, into a temporary `node_modules` laid out as an install
 * lays it out: `@askloop/*` side by side, each package's other dependencies
 * linked from its own `node_modules`. Nothing in the repository is written.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);

/** The machine's own Node 20, outside the toolchain that runs the tests (undefined where there is none). */
export const OLD_NODE = ['/usr/bin/node', '/usr/local/bin/node'].find((path) => existsSync(path) && execFileSync(path, ['--version'], { encoding: 'utf8' }).startsWith('v20.'));

/** What importing the package printed and how the process ended. */
export interface ImportOutcome {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A package built and laid out in a temporary project; `dispose()` removes it. */
export interface BuiltPackage {
  /** Imports the package by name with `node` (an executable path) in a fresh process. */
  importWith(node: string): Promise<ImportOutcome>;
  dispose(): Promise<void>;
}

interface Manifest {
  readonly name: string;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Every workspace package's folder, by package name. */
function workspaceFolders(): Map<string, string> {
  const folders = new Map<string, string>();
  for (const group of ['packages', 'apps']) {
    for (const entry of readdirSync(join(ROOT, group))) {
      const manifest = join(ROOT, group, entry, 'package.json');
      if (existsSync(manifest)) folders.set((JSON.parse(readFileSync(manifest, 'utf8')) as Manifest).name, join(ROOT, group, entry));
    }
  }
  return folders;
}

/** The workspace packages the built files in `directory` import. */
async function workspaceImports(directory: string): Promise<Set<string>> {
  const found = new Set<string>();
  for (const file of await readdir(directory, { recursive: true })) {
    if (!file.endsWith('.js')) continue;
    const text = await readFile(join(directory, file), 'utf8');
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*"(@askloop\/[^"/]+)/g)) found.add(match[1]!);
  }
  return found;
}

/**
 * Builds the package in `folder` (its entry `src/index.ts`, with its own tsup
 * config, no declarations) into `target/dist`, next to its package.json, and
 * links its other dependencies into `target/node_modules` the way an install does.
 */
async function buildInto(folder: string, target: string): Promise<void> {
  const outDir = join(target, 'dist');
  // In the package's own folder, so tsup finds its config and treats its dependencies as `pnpm build` does.
  const script = `
    import { createRequire } from 'node:module';
    import { pathToFileURL } from 'node:url';
    const { build } = await import(pathToFileURL(createRequire(${JSON.stringify(join(folder, 'package.json'))}).resolve('tsup')).href);
    await build({ entry: { index: 'src/index.ts' }, outDir: ${JSON.stringify(outDir)}, dts: false, sourcemap: false, silent: true });
  `;
  await run(process.execPath, ['--input-type=module', '-e', script], { cwd: folder });
  await copyFile(join(folder, 'package.json'), join(target, 'package.json'));
  const manifest = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as Manifest;
  for (const name of Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })) {
    const installed = join(folder, 'node_modules', name);
    // A workspace package resolves to the one built beside it; an optional peer that is not installed stays missing.
    if (name.startsWith('@askloop/') || !existsSync(installed)) continue;
    const link = join(target, 'node_modules', name);
    await mkdir(dirname(link), { recursive: true });
    await symlink(await realpath(installed), link, 'dir');
  }
}

/**
 * Builds `name` and every workspace package its bundle imports (and theirs)
 * into a temporary project outside the repository.
 */
export async function buildPackage(name: string): Promise<BuiltPackage> {
  const folders = workspaceFolders();
  const project = await mkdtemp(join(tmpdir(), 'askloop-old-node-import-'));
  try {
    const built = new Set<string>();
    let pending = [name];
    while (pending.length > 0) {
      const next = new Set<string>();
      await Promise.all(
        pending.map(async (packageName) => {
          const folder = folders.get(packageName);
          if (folder === undefined) throw new Error(`${packageName} is not a workspace package`);
          built.add(packageName);
          const target = join(project, 'node_modules', packageName);
          await buildInto(folder, target);
          for (const imported of await workspaceImports(join(target, 'dist'))) if (!built.has(imported)) next.add(imported);
        }),
      );
      pending = [...next].filter((packageName) => !built.has(packageName));
    }
    const entry = join(project, 'import.mjs');
    await writeFile(entry, `import ${JSON.stringify(name)};\n`);
    await writeFile(join(project, 'package.json'), '{ "private": true, "type": "module" }\n');
    return {
      async importWith(node) {
        try {
          const { stdout, stderr } = await run(node, [entry], { cwd: project });
          return { status: 0, stdout, stderr };
        } catch (error) {
          const failed = error as { code?: unknown; stdout?: string; stderr?: string };
          if (typeof failed.code !== 'number') throw error;
          return { status: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
        }
      },
      dispose: () => rm(project, { recursive: true, force: true }),
    };
  } catch (error) {
    await rm(project, { recursive: true, force: true });
    throw error;
  }
}

/** The one error a package's Node version check throws on Node 20 (any `@askloop/*` package: the first one loaded says it). */
export const OLD_NODE_ERROR = /^Error: @askloop\/[a-z-]+ needs Node 24\.21\.0 or a later Node 24 \(not 25 or newer\); this is Node 20\.\d+\.\d+$/m;

/**
 * The test each package's `test/old-node.test.ts` declares: the built package loads on this Node, and on Node 20
 * fails with the one version error, not at link time. `namesItself`: the error is the package's own (a package
 * whose bundle imports another `@askloop` package first hears that one's check, which Node evaluates before it).
 */
export function describeOldNodeImport(name: string, options: { readonly namesItself: boolean }): void {
  describe.runIf(OLD_NODE !== undefined)('the built package, imported', () => {
    let built: BuiltPackage | undefined;
    beforeAll(async () => {
      built = await buildPackage(name);
    }, 120_000);
    afterAll(() => built?.dispose());

    it('loads on this Node', async () => {
      expect(await built!.importWith(process.execPath)).toEqual({ status: 0, stdout: '', stderr: '' });
    });

    it('fails on Node 20 with the one error naming the Node it needs', async () => {
      const result = await built!.importWith(OLD_NODE!);
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(OLD_NODE_ERROR);
      if (options.namesItself) expect(result.stderr).toMatch(new RegExp(`^Error: ${name.replace('/', '\\/')} needs Node `, 'm'));
      expect(result.stderr.match(/ needs Node /g)).toHaveLength(1);
      expect(result.stderr).not.toMatch(/ERR_UNKNOWN_BUILTIN_MODULE|SyntaxError/);
    });
  });
}
