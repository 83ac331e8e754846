import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' },
  format: ['esm'],
  target: 'node24',
  dts: true,
  sourcemap: true,
  clean: true,
  // Keep `node:` prefixes as the sources write them: some built-ins (`node:sqlite`, `node:test`) exist only with it.
  removeNodeProtocol: false,
});
