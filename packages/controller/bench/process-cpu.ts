/**
 * CPU time of this process and of its child processes over a stretch of a
 * benchmark, for the CPU a turn costs each part of the host: the host process
 * itself (its main thread and V8's helper threads), the sandbox workers, and
 * the model server. CPU per turn moves far less than turns per second when
 * the machine's speed drifts, and says which process a saving must come from.
 *
 * The host's main thread is counted apart as well, with the time it was ready
 * to run but waited for a core, and its event-loop utilisation: everything
 * the host does for a turn but V8's background work runs on that one thread,
 * so once it is always busy it, not the sum over both cores, bounds the turns
 * per second. The workers' main threads (Node: IPC, timers, making contexts)
 * are counted apart from their isolate threads (the programs themselves).
 *
 * Children are read from /proc (Linux; user + system ticks of 10 ms); the main
 * threads' times from `schedstat` (nanoseconds; stat's ticks where it is
 * missing). Elsewhere only this process is counted, and `childrenAvailable`
 * says so.
 */
import { readFileSync } from 'node:fs';
import { childPids, procStatFields } from './process-memory.ts';

/** Clock ticks per second of /proc's utime and stime (USER_HZ: 100 on every Linux Node supports). */
const TICKS_PER_SECOND = 100;

/** User + system CPU ms of a process (all its threads), or of one thread with `tid`; 0 once it has ended. */
function procCpuMs(pid: number, tid?: number): number {
  const fields = procStatFields(pid, tid);
  // utime and stime, fields 14 and 15 of stat(5), counted from the state field (3).
  return fields === undefined ? 0 : ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** A thread's time on a core and waiting for one (ms, from `schedstat`); undefined where the kernel keeps none. */
function schedMs(pid: number, tid: number): { readonly onCpuMs: number; readonly waitingMs: number } | undefined {
  try {
    const [onCpuNs, waitingNs] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
    if (!Number.isFinite(onCpuNs) || !Number.isFinite(waitingNs)) return undefined;
    return { onCpuMs: (onCpuNs as number) / 1e6, waitingMs: (waitingNs as number) / 1e6 };
  } catch {
    return undefined;
  }
}

/** This process's main thread: time on a core and waiting for one (NaN where unknown). */
function hostMainThread(): { onCpuMs: number; waitingMs: number } {
  if (process.platform !== 'linux') return { onCpuMs: Number.NaN, waitingMs: Number.NaN };
  return schedMs(process.pid, process.pid) ?? { onCpuMs: procCpuMs(process.pid, process.pid), waitingMs: Number.NaN };
}

/** A child's main thread on a core (ms). */
function childMainThreadMs(pid: number): number {
  return schedMs(pid, pid)?.onCpuMs ?? procCpuMs(pid, pid);
}

/** CPU milliseconds spent since `startCpuTally` was called. */
export interface CpuTally {
  /** This process, all its threads (user + system). */
  readonly hostMs: number;
  /** This process's main thread alone: time on a core (NaN off Linux). */
  readonly hostMainMs: number;
  /** Time this process's main thread was ready to run but waited for a core (NaN where the kernel keeps no schedstat). */
  readonly hostMainWaitingMs: number;
  /** This process's event-loop utilisation over the stretch (0–1): the share of the time its main thread was not idle. */
  readonly hostEventLoopUtilization: number;
  /** Every child but the named ones, summed (the sandbox workers). */
  readonly childrenMs: number;
  /** The main threads of those children alone (the rest is their isolate and V8 helper threads). */
  readonly childrenMainMs: number;
  /** Each named child (e.g. `server`). */
  readonly namedMs: Readonly<Record<string, number>>;
  readonly childrenAvailable: boolean;
}

/** Starts counting; `stop()` returns the CPU spent since, by process. `named` maps a label to a child's pid. */
export function startCpuTally(named: Readonly<Record<string, number>> = {}): { stop(): CpuTally } {
  const childrenAvailable = process.platform === 'linux';
  const namedPids = new Set(Object.values(named));
  const hostBefore = process.cpuUsage();
  const mainBefore = hostMainThread();
  const eluBefore = performance.eventLoopUtilization();
  const before = new Map<number, { all: number; main: number }>();
  if (childrenAvailable) for (const pid of childPids(new Set())) before.set(pid, { all: procCpuMs(pid), main: childMainThreadMs(pid) });
  return {
    stop() {
      const host = process.cpuUsage(hostBefore);
      const main = hostMainThread();
      const elu = performance.eventLoopUtilization(eluBefore);
      let childrenMs = 0;
      let childrenMainMs = 0;
      const namedMs: Record<string, number> = {};
      if (childrenAvailable) {
        // A child that started during the stretch (a replaced worker) counts from zero; one that ended during it is
        // not counted at all (its /proc entry is gone), so a run that retires workers reads low.
        for (const pid of childPids(namedPids)) {
          childrenMs += procCpuMs(pid) - (before.get(pid)?.all ?? 0);
          childrenMainMs += childMainThreadMs(pid) - (before.get(pid)?.main ?? 0);
        }
        for (const [name, pid] of Object.entries(named)) namedMs[name] = procCpuMs(pid) - (before.get(pid)?.all ?? 0);
      }
      return {
        hostMs: (host.user + host.system) / 1000,
        hostMainMs: main.onCpuMs - mainBefore.onCpuMs,
        hostMainWaitingMs: main.waitingMs - mainBefore.waitingMs,
        hostEventLoopUtilization: elu.utilization,
        childrenMs,
        childrenMainMs,
        namedMs,
        childrenAvailable,
      };
    },
  };
}
