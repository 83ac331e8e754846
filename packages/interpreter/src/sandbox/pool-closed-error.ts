/**
 * `SANDBOX_POOL_CLOSED`, saying what to do: the bare "the sandbox pool is
 * closed" left a host to guess whether to retry, wait or make a new pool.
 */
import { SandboxError } from './sandbox-error.ts';

/** What a host does about a closed pool (the error-code table says the same in its fix column). */
const POOL_CLOSED_FIX = 'create a new pool (createSandboxPool()) for more runs, and close a pool only once the runs given to it have finished (await them before close())';

/** The error for a run or warmup after `close()` (`during: false`), or for a run that `close()` ended (`during: true`). */
export function poolClosedError(during: boolean): SandboxError {
  return new SandboxError('SANDBOX_POOL_CLOSED', `${during ? 'the sandbox pool was closed during the run' : 'the sandbox pool is closed'}: ${POOL_CLOSED_FIX}`);
}
