/**
 * CPU time of this process and of its child processes over a stretch of a
 * benchmark, for the CPU a turn costs each part of the host: the host process
 * itself (its main thread and V8's helper threads), the sandbox workers, and
 * the model server. CPU per turn moves far less than turns per second when
 * the machine's speed drifts, and says which process a saving must come from.
 * Children are read from /proc (Linux; user + system ticks); elsewhere only
 * this process is counted, and `childrenAvailable` says so.
 */
import { childPids, procStatFields } from './process-memory.ts';

/** Clock ticks per second of /proc's utime and stime (USER_HZ: 100 on every Linux Node supports). */
const TICKS_PER_SECOND = 100;

function childCpuMs(pid: number): number {
  const fields = procStatFields(pid);
  // utime and stime, fields 14 and 15 of stat(5), counted from the state field (3); 0 once the process has ended.
  return fields === undefined ? 0 : ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** CPU milliseconds spent since `startCpuTally` was called. */
export interface CpuTally {
  /** This process, all its threads (user + system). */
  readonly hostMs: number;
  /** Every child but the named ones, summed (the sandbox workers). */
  readonly childrenMs: number;
  /** Each named child (e.g. `server`). */
  readonly namedMs: Readonly<Record<string, number>>;
  readonly childrenAvailable: boolean;
}

/** Starts counting; `stop()` returns the CPU spent since, by process. `named` maps a label to a child's pid. */
export function startCpuTally(named: Readonly<Record<string, number>> = {}): { stop(): CpuTally } {
  const childrenAvailable = process.platform === 'linux';
  const namedPids = new Set(Object.values(named));
  const hostBefore = process.cpuUsage();
  const before = new Map<number, number>();
  if (childrenAvailable) for (const pid of childPids(new Set())) before.set(pid, childCpuMs(pid));
  return {
    stop() {
      const host = process.cpuUsage(hostBefore);
      let childrenMs = 0;
      const namedMs: Record<string, number> = {};
      if (childrenAvailable) {
        // A child that started during the stretch (a replaced worker) counts from zero; one that ended during it is
        // not counted at all (its /proc entry is gone), so a run that retires workers reads low.
        for (const pid of childPids(namedPids)) childrenMs += childCpuMs(pid) - (before.get(pid) ?? 0);
        for (const [name, pid] of Object.entries(named)) namedMs[name] = childCpuMs(pid) - (before.get(pid) ?? 0);
      }
      return { hostMs: (host.user + host.system) / 1000, childrenMs, namedMs, childrenAvailable };
    },
  };
}
