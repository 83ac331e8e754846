import { defineConfig } from 'tsup';

export default defineConfig({
  // The sandbox worker is forked as its own process and the parse worker is a worker thread, so each is an entry
  // of its own (dist/sandbox/worker-main.js, dist/parse/parse-worker.js).
  entry: ['src/index.ts', 'src/sandbox/worker-main.ts', 'src/parse/parse-worker.ts'],
  format: ['esm'],
  target: 'node24',
  dts: true,
  sourcemap: true,
  clean: true,
});
