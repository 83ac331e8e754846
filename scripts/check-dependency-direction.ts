/**
 * Fails when a workspace package imports another that the dependency table
 * forbids (the table of DESIGN.md, kept in `ALLOWED` below and in
 * ARCHITECTURE.md). Checks both package.json dependencies and the import
 * statements of every TypeScript file, and that nothing imports the app.
 *
 * Usage: node scripts/check-dependency-direction.ts [--self-test]
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** Which workspace packages each package may import; `types` = `import type` only. */
export const ALLOWED: Record<string, Record<string, 'any' | 'types'>> = {
  '@askloop/envelope': {},
  '@askloop/interpreter': {},
  '@askloop/providers': {},
  '@askloop/tools': { '@askloop/interpreter': 'types' },
  '@askloop/controller': { '@askloop/envelope': 'any', '@askloop/interpreter': 'any', '@askloop/tools': 'any', '@askloop/providers': 'any' },
  // The controller is injected into the MCP server (the `ask` function), never imported.
  '@askloop/mcp': { '@askloop/interpreter': 'any', '@askloop/tools': 'any' },
  // The interpreter and providers for its tests and the worker's loop (a sandbox pool, the scripted model).
  '@askloop/postgres': { '@askloop/controller': 'any', '@askloop/tools': 'any', '@askloop/interpreter': 'any', '@askloop/providers': 'any' },
  askloop: { '@askloop/envelope': 'any', '@askloop/interpreter': 'any', '@askloop/tools': 'any', '@askloop/providers': 'any', '@askloop/controller': 'any', '@askloop/mcp': 'any', '@askloop/postgres': 'any' },
};

const IMPORT = /^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;

function sourceFiles(directory: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(directory)) {
    if (entry === 'node_modules' || entry === 'dist' || entry.startsWith('.')) continue;
    const path = join(directory, entry);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (/\.(ts|mts|js|mjs)$/.test(entry)) files.push(path);
  }
  return files;
}

/** Every violation in the workspace at `root`, as readable lines. */
export function findViolations(root: string): string[] {
  const violations: string[] = [];
  const packageDirectories = ['packages', 'apps'].flatMap((folder) => {
    try {
      return readdirSync(join(root, folder)).map((name) => join(root, folder, name));
    } catch {
      return [];
    }
  });
  for (const directory of packageDirectories) {
    const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as { name: string; dependencies?: object; devDependencies?: object; peerDependencies?: object };
    const allowed = ALLOWED[manifest.name];
    if (allowed === undefined) {
      violations.push(`${manifest.name}: not in the dependency table; add it to scripts/check-dependency-direction.ts and ARCHITECTURE.md`);
      continue;
    }
    const declared = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies, ...manifest.peerDependencies });
    for (const dependency of declared) {
      if ((dependency.startsWith('@askloop/') || dependency === 'askloop') && allowed[dependency] === undefined) {
        violations.push(`${manifest.name}: package.json depends on ${dependency}, which the dependency table forbids`);
      }
    }
    for (const file of sourceFiles(directory)) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(IMPORT)) {
        const specifier = match[3] ?? match[4]!;
        const typeOnly = match[2] !== undefined;
        const where = `${relative(root, file)}`;
        if (specifier.startsWith('.')) {
          const target = resolve(dirname(file), specifier);
          const inside = target.startsWith(directory + sep);
          const shared = target.startsWith(join(root, 'scripts') + sep) || target === join(root, 'vitest.shared.ts');
          if (!inside && !shared) violations.push(`${where}: relative import '${specifier}' reaches outside its package; import the package by name`);
          continue;
        }
        const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
        if (!name.startsWith('@askloop/') && name !== 'askloop') continue;
        if (name === manifest.name) continue;
        const rule = allowed[name];
        if (rule === undefined) violations.push(`${where}: imports ${name}, which ${manifest.name} may not import`);
        else if (rule === 'types' && !typeOnly) violations.push(`${where}: imports values from ${name}; ${manifest.name} may import its types only (use 'import type')`);
      }
    }
  }
  return violations;
}

function selfTest(): void {
  const root = mkdtempSync(join(tmpdir(), 'askloop-deps-'));
  try {
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    write('packages/envelope/package.json', JSON.stringify({ name: '@askloop/envelope' }));
    write('packages/envelope/src/a.ts', "import { x } from '@askloop/interpreter';\n");
    write('packages/tools/package.json', JSON.stringify({ name: '@askloop/tools', dependencies: { '@askloop/interpreter': 'workspace:*' } }));
    write('packages/tools/src/ok.ts', "import type { ToolCatalog } from '@askloop/interpreter';\n");
    write('packages/tools/src/bad.ts', "import { parse } from '@askloop/interpreter';\nconst m = await import('@askloop/controller');\n");
    write('packages/tools/src/escape.ts', "import { y } from '../../envelope/src/a.ts';\n");
    write('packages/mcp/package.json', JSON.stringify({ name: '@askloop/mcp', dependencies: { '@askloop/tools': 'workspace:*' } }));
    write('packages/mcp/src/ok.ts', "import { createToolHost } from '@askloop/tools';\nimport { parse } from '@askloop/interpreter';\n");
    write('packages/mcp/src/bad.ts', "import { createAskLoop } from '@askloop/controller';\n");
    const found = findViolations(root);
    const expected = [
      'packages/envelope/src/a.ts: imports @askloop/interpreter',
      'packages/tools/src/bad.ts: imports values from @askloop/interpreter',
      'packages/tools/src/bad.ts: imports @askloop/controller',
      "packages/tools/src/escape.ts: relative import '../../envelope/src/a.ts' reaches outside",
      'packages/mcp/src/bad.ts: imports @askloop/controller',
    ];
    const missing = expected.filter((prefix) => !found.some((line) => line.startsWith(prefix)));
    if (missing.length > 0 || found.length !== expected.length) {
      console.error(`self-test failed.\nexpected: ${expected.join('\n  ')}\nfound: ${found.join('\n  ')}`);
      process.exit(1);
    }
    console.log(`dependency-direction self-test: ${expected.length} planted violations found`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv.includes('--self-test')) selfTest();
const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const violations = findViolations(root);
if (violations.length > 0) {
  console.error(`Dependency direction violated (see ARCHITECTURE.md):\n  ${violations.join('\n  ')}`);
  process.exit(1);
}
console.log('dependency direction: ok');
