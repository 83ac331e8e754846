import { defineConfig } from 'tsup';

export default defineConfig({
  // The sandbox worker imports local/local-tools.js by URL (localToolsModule), so it is an entry of its own.
  entry: { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts', 'local/local-tools': 'src/local/local-tools.ts' },
  format: ['esm'],
  target: 'node24',
  dts: true,
  sourcemap: true,
  clean: true,
  // Keep `node:` prefixes as the sources write them: some built-ins (`node:sqlite`, `node:test`) exist only with it.
  removeNodeProtocol: false,
});
