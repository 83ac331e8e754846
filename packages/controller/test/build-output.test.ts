/**
 * The published bundle must load Node built-ins with their `node:` prefix:
 * `node:sqlite` exists only under that name, and a bundle importing `sqlite`
 * fails at start-up (`askloop demo` did, through the SQLite transcript store).
 * It loads `node:sqlite` where a file is opened, through `@askloop/tools`'
 * `loadSqlite` (whose own bundle test checks how), never with a static
 * import, which an old Node fails to link before the package's Node version
 * check runs.
 */
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import { describe, expect, it } from 'vitest';

describe('the built package', () => {
  it('keeps node: prefixes, and loads node:sqlite only where a file is opened (through the tools\' loadSqlite)', async () => {
    const outDir = await mkdtemp(join(tmpdir(), 'askloop-controller-build-'));
    try {
      const root = fileURLToPath(new URL('..', import.meta.url));
      await build({ config: join(root, 'tsup.config.ts'), entry: { index: join(root, 'src/index.ts') }, outDir, dts: false, sourcemap: false, silent: true, clean: false });
      const bundle = await readFile(join(outDir, 'index.js'), 'utf8');
      // Loaded where a file is opened (an old Node cannot link a static import of it), by the tools' loadSqlite.
      expect(bundle).toMatch(/import \{[^}]*\bloadSqlite\b[^}]*\} from "@askloop\/tools"/);
      expect(bundle).not.toMatch(/from "(node:)?sqlite"/);
      expect(bundle).not.toMatch(/getBuiltinModule\("sqlite"\)/);
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
  });
});
