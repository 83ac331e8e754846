/**
 * Makes a sandbox worker exit when the process that forked it is gone,
 * however it died (SIGKILL, SIGTERM, a crash): on the IPC channel's
 * `disconnect`, and, as a backstop for a channel that stays open (an
 * inherited descriptor) or a missed event, a cheap periodic check that the
 * parent still exists. Without this a worker whose host was killed while a
 * tool call was pending could spin on for minutes.
 */

/** Options of {@link watchParent}; the defaults watch the real process. */
export interface ParentWatchOptions {
  /** How often the backstop checks, in ms. Default 1000. */
  readonly intervalMs?: number;
  /** The parent's pid when the worker started. Default `process.ppid`. */
  readonly parentPid?: number;
  /** The current parent pid (changes when the parent dies and the worker is re-parented). Default reads `process.ppid`. */
  readonly currentParentPid?: () => number;
  /** Whether a process exists. Default `process.kill(pid, 0)`. */
  readonly isAlive?: (pid: number) => boolean;
  /** Where `disconnect` is listened for. Default `process`. */
  readonly channel?: { on(event: 'disconnect', listener: () => void): unknown; off(event: 'disconnect', listener: () => void): unknown };
  /** Ends the worker. Default: SIGKILL to itself, which works even while an isolate thread is busy (a clean exit would wait for it). */
  readonly exit?: () => void;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else (the pid was reused; treat as gone only on ESRCH).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Starts watching; returns a function that stops (for tests). The backstop timer never keeps the worker alive. */
export function watchParent(options: ParentWatchOptions = {}): () => void {
  const parentPid = options.parentPid ?? process.ppid;
  const currentParentPid = options.currentParentPid ?? (() => process.ppid);
  const isAlive = options.isAlive ?? processAlive;
  const channel = options.channel ?? process;
  const exit = options.exit ?? (() => process.kill(process.pid, 'SIGKILL'));
  let done = false;
  const gone = (): void => {
    if (done) return;
    done = true;
    stop();
    exit();
  };
  const check = (): void => {
    if (currentParentPid() !== parentPid || !isAlive(parentPid)) gone();
  };
  const timer = setInterval(check, options.intervalMs ?? 1_000);
  timer.unref();
  channel.on('disconnect', gone);
  const stop = (): void => {
    clearInterval(timer);
    channel.off('disconnect', gone);
  };
  return stop;
}
