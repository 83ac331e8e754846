/**
 * Resident memory of this process and of its child processes (the sandbox
 * workers), sampled while a benchmark runs, for the peak RSS of the host as a
 * whole. Children are found in /proc (Linux); elsewhere only this process
 * counts, and the report says so.
 */
import { readdirSync, readFileSync } from 'node:fs';

/**
 * The fields of `/proc/<pid>/stat` after the command name, from the state (field 3 of stat(5)) on; undefined once the
 * process has ended. With `tid`, of that thread alone (`/proc/<pid>/task/<tid>/stat`; the main thread's tid is the pid).
 */
export function procStatFields(pid: number, tid?: number): string[] | undefined {
  try {
    const stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined; // the process ended while we looked
  }
}

/** Child process ids of this process, except those in `exclude` (Linux; elsewhere none). */
export function childPids(exclude: ReadonlySet<number>): number[] {
  try {
    const pids: number[] = [];
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const pid = Number(name);
      if (!exclude.has(pid) && Number(procStatFields(pid)?.[1]) === process.pid) pids.push(pid);
    }
    return pids;
  } catch {
    return [];
  }
}

function rssOf(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? 0 : Number(match[1]) * 1024;
  } catch {
    return 0;
  }
}

/** A sampler of this process's RSS plus its children's; `stop()` returns the peaks in bytes. */
export function sampleMemory(exclude: ReadonlySet<number>, everyMs = 50): { stop(): { peakTotal: number; peakHost: number; children: number; procAvailable: boolean } } {
  let peakTotal = 0;
  let peakHost = 0;
  let children = 0;
  const procAvailable = process.platform === 'linux';
  // Scanning /proc for children reads every process's stat file; the children change rarely (a retired
  // sandbox worker), so the list is refreshed once a second, not at every sample (it cost the host ~2%).
  let pids: number[] = [];
  let scannedAt = Number.NEGATIVE_INFINITY;
  const sample = (): void => {
    const host = process.memoryUsage.rss();
    const now = performance.now();
    if (procAvailable && now - scannedAt >= 1000) {
      pids = childPids(exclude);
      scannedAt = now;
    }
    children = Math.max(children, pids.length);
    const total = host + pids.reduce((sum, pid) => sum + rssOf(pid), 0);
    peakHost = Math.max(peakHost, host);
    peakTotal = Math.max(peakTotal, total);
  };
  sample();
  const maxRssBefore = process.resourceUsage().maxRSS;
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      sample();
      clearInterval(timer);
      // maxRSS (KiB, the process's lifetime peak) catches a peak between samples — when it rose during this window.
      const maxRss = process.resourceUsage().maxRSS;
      if (maxRss > maxRssBefore) peakHost = Math.max(peakHost, maxRss * 1024);
      return { peakTotal: Math.max(peakTotal, peakHost), peakHost, children, procAvailable };
    },
  };
}
