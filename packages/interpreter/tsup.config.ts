import { defineConfig } from 'tsup';

export default defineConfig({
  // The sandbox worker is forked as its own process, so it is an entry of its own (dist/sandbox/worker-main.js).
  entry: ['src/index.ts', 'src/sandbox/worker-main.ts'],
  format: ['esm'],
  target: 'node24',
  dts: true,
  sourcemap: true,
  clean: true,
});
