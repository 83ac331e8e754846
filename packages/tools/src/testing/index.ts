/**
 * `@askloop/tools/testing`: the shared conformance table every tool store
 * (memory, scratch, idempotence) runs — SQLite here, server stores in their
 * own packages. Plain `node:assert`, no test runner.
 */
export { toolStoreCases, type MakeToolStores, type ToolStoreCase, type ToolStoreFixture } from './tool-store-cases.ts';
