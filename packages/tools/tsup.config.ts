import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  target: 'node24',
  dts: true,
  sourcemap: true,
  clean: true,
  // Keep `node:` prefixes: `node:sqlite` only exists with the prefix.
  removeNodeProtocol: false,
});
