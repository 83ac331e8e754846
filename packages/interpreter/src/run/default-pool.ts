/**
 * The shared sandbox pool interpreters use when given none: created on first
 * use, closed with `closeDefaultPool()` (an idle pool does not keep the
 * process alive).
 */
import { createSandboxPool, type SandboxPool } from '../sandbox/index.ts';

let shared: SandboxPool | undefined;

/** The shared pool, created on first call. */
export function defaultPool(): SandboxPool {
  shared ??= createSandboxPool();
  return shared;
}

/** Closes the shared pool if it exists; the next run creates a new one. */
export async function closeDefaultPool(): Promise<void> {
  const pool = shared;
  shared = undefined;
  await pool?.close();
}
