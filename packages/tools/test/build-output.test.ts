/**
 * The published bundle loads `node:sqlite` with `process.getBuiltinModule`,
 * under its prefixed name, where a file is opened (`loadSqlite`): a static
 * import of it fails to link on an old Node before the package's Node
 * version check runs, and `sqlite` without its prefix does not exist. The
 * controller and the `askloop` command open their files through this one
 * function.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import { describe, expect, it } from 'vitest';

describe('the built package', () => {
  it('loads node:sqlite by its prefixed name, where a file is opened, never by a static import', async () => {
    const outDir = await mkdtemp(join(tmpdir(), 'askloop-tools-build-'));
    try {
      const root = fileURLToPath(new URL('..', import.meta.url));
      await build({ config: join(root, 'tsup.config.ts'), entry: { index: join(root, 'src/index.ts') }, outDir, dts: false, sourcemap: false, silent: true, clean: false });
      const bundle = await readFile(join(outDir, 'index.js'), 'utf8');
      expect(bundle).toMatch(/process\.getBuiltinModule\("node:sqlite"\)/);
      expect(bundle).not.toMatch(/from "(node:)?sqlite"/);
      expect(bundle).not.toMatch(/getBuiltinModule\("sqlite"\)/);
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
  });
});
