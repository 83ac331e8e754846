import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

// The CLI is one file; workspace packages stay external and resolve to their
// own `dist/` builds (turbo builds them first), so their native dependencies
// such as isolated-vm resolve from the package that declares them.
export default defineConfig({
  entry: ['src/cli.ts'],
  format: ['esm'],
  target: 'node24',
  sourcemap: true,
  clean: true,
  define: { __ASKLOOP_VERSION__: JSON.stringify(version) },
  banner: { js: '#!/usr/bin/env node' },
  // Keep `node:` prefixes as the sources write them: some built-ins (`node:sqlite`, `node:test`) exist only with it.
  removeNodeProtocol: false,
});
