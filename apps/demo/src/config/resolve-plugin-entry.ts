/**
 * Finds the module a `plugins:` entry names, the way Node would from the
 * config file's folder: a `./relative` (or absolute) path to a file or a
 * package folder, or a package name looked up in `node_modules` folders from
 * there upwards. A package's entry is its `exports` (`import`, `node` or
 * `default` condition), else `module`, `main`, `index.js`. Done by hand
 * because `import.meta.resolve` cannot take a parent folder without a flag,
 * and `require.resolve` ignores `import`-only exports.
 */
import { editDistance } from '@askloop/tools';
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** The absolute path of the entry module, or a sentence saying why there is none. */
export function resolvePluginEntry(specifier: string, fromDir: string): { path: string } | { problem: string } {
  if (specifier.startsWith('.') || isAbsolute(specifier)) {
    const target = resolve(fromDir, specifier);
    if (!existsSync(target)) return { problem: `${target} does not exist` };
    return statSync(target).isDirectory() ? packageEntry(target) : { path: realpathSync(target) };
  }
  if (!/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(specifier)) return { problem: `'${specifier}' is not a package name or a ./relative path` };
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const folder = join(dir, 'node_modules', specifier);
    if (existsSync(join(folder, 'package.json'))) return packageEntry(folder);
    if (dirname(dir) === dir) break;
  }
  // A folder of that name beside the config is most likely the package itself, not yet installed; a file of that name
  // (`returns.ts`) is a path written without its `./`.
  const beside = join(fromDir, specifier);
  const folderHint = existsSync(join(beside, 'package.json')) ? `; or name the folder ${beside} by its path, './${specifier}'` : '';
  if (folderHint === '' && existsSync(beside) && statSync(beside).isFile()) {
    return { problem: `package '${specifier}' is not installed, but the file ${beside} exists: did you mean ./${specifier}? (a path to a file starts with ./)` };
  }
  const meant = installedLike(specifier, fromDir);
  const meantHint = meant.length === 0 ? '' : `; did you mean ${meant.map((name) => `'${name}'`).join(' or ')}? (installed)`;
  return {
    problem: `package '${specifier}' is not installed in ${join(fromDir, 'node_modules')} or a folder above it${meantHint}; install it next to the config file (npm install ${specifier} from the registry, or npm install /path/to/its/folder)${folderHint}`,
  };
}

/** The package names in one `node_modules` folder, scoped ones as `@scope/name`; none when it cannot be read. */
function packagesIn(folder: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(folder);
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    if (entry.startsWith('.')) return [];
    if (!entry.startsWith('@')) return [entry];
    try {
      return readdirSync(join(folder, entry)).map((name) => `${entry}/${name}`);
    } catch {
      return [];
    }
  });
}

/**
 * Installed packages `specifier` most likely meant (`askloop-plugin-k` → `askloop-plugin-kv`): in the `node_modules`
 * folders Node would search, those that begin with it or are a few edits from it, closest first.
 */
function installedLike(specifier: string, fromDir: string): string[] {
  const names = new Set<string>();
  for (let dir = fromDir; ; dir = dirname(dir)) {
    for (const name of packagesIn(join(dir, 'node_modules'))) names.add(name);
    if (dirname(dir) === dir) break;
  }
  const wanted = specifier.toLowerCase();
  const limit = Math.max(1, Math.floor(wanted.length / 5));
  return [...names]
    .map((name) => ({ name, distance: editDistance(wanted, name.toLowerCase()) }))
    .filter(({ name, distance }) => distance <= limit || (wanted.length >= 3 && name.toLowerCase().startsWith(wanted)))
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
    .slice(0, 3)
    .map(({ name }) => name);
}

/** The condition object or string of `exports["."]`, narrowed to one file. */
function pickExport(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(pickExport).find((entry) => entry !== undefined);
  if (value === null || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  if ('.' in record) return pickExport(record['.']);
  for (const condition of ['import', 'node', 'default']) {
    const found = condition in record ? pickExport(record[condition]) : undefined;
    if (found !== undefined) return found;
  }
  return undefined;
}

function packageEntry(folder: string): { path: string } | { problem: string } {
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as Record<string, unknown>;
  } catch (error) {
    return { problem: `${join(folder, 'package.json')} is not readable JSON: ${(error as Error).message}` };
  }
  const relative = pickExport(manifest['exports']) ?? (typeof manifest['module'] === 'string' ? manifest['module'] : undefined) ?? (typeof manifest['main'] === 'string' ? manifest['main'] : undefined) ?? 'index.js';
  const entry = resolve(folder, relative);
  if (!existsSync(entry)) return { problem: `the package's entry ${entry} does not exist (is the package built?)` };
  return { path: realpathSync(entry) };
}
