/**
 * @askloop/postgres: AskLoop beyond one machine. The controller's transcript
 * and the tools' stores on PostgreSQL, migrations per owner, and a work queue
 * of sessions with leases and fencing tokens, so any number of hosts run
 * turns with exactly one in-flight turn per session and nothing lost when a
 * host dies.
 */
// First, before anything that an old Node cannot load: one clear error on a Node that is too old.
import './node-version-check.ts';
export { HOST_ROLE_RIGHTS } from './migrate/migration-hint.ts';
export { findPostgresError, isLeaseLost, isPermissionDenied, isPostgresStoreError, isTransactionConflict, POSTGRES_ERROR_CODES, PostgresStoreError, type PostgresErrorCode } from './errors/postgres-store-error.ts';
export { migrateOwner, type PostgresMigration } from './migrate/migrate-owner.ts';
export { applyPostgresMigrations, CONTROLLER_MIGRATIONS, POSTGRES_MIGRATION_OWNERS, QUEUE_MIGRATIONS, TOOLS_MIGRATIONS } from './migrate/postgres-migrations.ts';
export { createPostgresTranscriptStore } from './transcript/postgres-transcript-store.ts';
export { createPostgresToolStores, type PostgresToolStoresOptions } from './tools/postgres-tool-stores.ts';
export { createSessionQueue, enqueueSession, type Lease, type QueueEntry, type QueueState, type RetryOutcome, type SessionQueue, type SessionQueueOptions } from './queue/session-queue.ts';
export { createLeaseBoundStores, type LeaseBinding, type LeaseBoundStores, type StepOutcome } from './worker/lease-bound-stores.ts';
export { runWorker, type RunWorkerOptions, type WorkerStats, type WorkerStepEvent } from './worker/run-worker.ts';
