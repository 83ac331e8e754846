/**
 * The published bundle must load Node built-ins with their `node:` prefix:
 * `node:sqlite` exists only under that name, and a bundle importing `sqlite`
 * fails at start-up (`askloop demo` did, through the SQLite transcript store).
 * It loads `node:sqlite` with `process.getBuiltinModule` where a file is
 * opened, not with a static import, which an old Node fails to link before
 * the package's Node version check runs.
 */
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import { describe, expect, it } from 'vitest';

describe('the built package', () => {
  it('keeps node: prefixes, so node:sqlite resolves, and loads it only where a file is opened', async () => {
    const outDir = await mkdtemp(join(tmpdir(), 'askloop-controller-build-'));
    try {
      const root = fileURLToPath(new URL('..', import.meta.url));
      await build({ config: join(root, 'tsup.config.ts'), entry: { index: join(root, 'src/index.ts') }, outDir, dts: false, sourcemap: false, silent: true, clean: false });
      const bundle = await readFile(join(outDir, 'index.js'), 'utf8');
      // Loaded where a file is opened (an old Node cannot link a static import of it), under its prefixed name.
      expect(bundle).toMatch(/process\.getBuiltinModule\("node:sqlite"\)/);
      expect(bundle).not.toMatch(/from "(node:)?sqlite"/);
      expect(bundle).not.toMatch(/getBuiltinModule\("sqlite"\)/);
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
  });
});
