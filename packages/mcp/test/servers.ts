/**
 * Where the real MCP servers the tests spawn live: their bin scripts,
 * resolved from this package's devDependencies (never npx at test time).
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** The bin script of a `@modelcontextprotocol/server-*` package. */
export function serverBin(name: 'everything' | 'filesystem' | 'memory'): string {
  return require.resolve(`@modelcontextprotocol/server-${name}/dist/index.js`);
}

/** The fixture server script. */
export const FIXTURE_SERVER = fileURLToPath(new URL('./fixtures/fixture-server.ts', import.meta.url));

/** This Node (the tests run under Node 24, which runs the .ts fixture directly). */
export const NODE = process.execPath;
