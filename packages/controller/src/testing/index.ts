/**
 * `@askloop/controller/testing`: the shared conformance table every
 * transcript store runs (memory and SQLite here; server stores in their own
 * packages), and the sample records it uses. Plain `node:assert`, no test runner.
 */
export { transcriptStoreCases, type MakeTranscriptStore, type TranscriptStoreCase } from './transcript-store-cases.ts';
export { sampleSession, sampleTally, sampleTurn } from './transcript-fixtures.ts';
