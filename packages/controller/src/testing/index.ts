/**
 * `@askloop/controller/testing`: the shared conformance tables every
 * transcript store runs (memory and SQLite here; server stores in their own
 * packages) — its records, and the fencing of its session leases between two
 * hosts — and the sample records they use. Plain `node:assert`, no test runner.
 */
export { leaseFencingCases, type LeaseFencingCase, type OpenTwoHosts } from './lease-fencing-cases.ts';
export { transcriptStoreCases, type MakeTranscriptStore, type TranscriptStoreCase } from './transcript-store-cases.ts';
export { sampleRerunTurn, sampleSession, sampleTally, sampleTurn, sampleUnfinishedTurn } from './transcript-fixtures.ts';
