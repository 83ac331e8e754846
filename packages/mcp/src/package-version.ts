/**
 * This package's version, from its manifest (bundled into `dist` at build
 * time), so the MCP server and client introduce themselves with the real
 * version that changesets set, not a placeholder.
 */
import manifest from '../package.json' with { type: 'json' };

/** The version of `@askloop/mcp` (its package.json `version`). */
export const PACKAGE_VERSION: string = manifest.version;
