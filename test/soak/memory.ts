import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Preloaded into the server (NODE_OPTIONS) so the soak can read its heap. */
export const MEMORY_PROBE = fileURLToPath(new URL('./memory-probe.mjs', import.meta.url));

export interface MemorySample {
  /** Seconds since the load started. */
  at: number;
  /** Resident memory of the server process, bytes. */
  rss: number;
  /** V8 heap used and reserved, bytes, when the probe has written them. */
  heapUsed?: number;
  heapTotal?: number;
}

const probeFile = (pid: number) => join(tmpdir(), `oe-soak-memory-${pid}.json`);
export const removeProbeFile = (pid: number) => rm(probeFile(pid), { force: true });

/** VmRSS of /proc/<pid>/status in bytes; undefined once the process is gone. */
function residentBytes(pid: number): number | undefined {
  try {
    const kib = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return kib ? Number(kib[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** The probe's last process.memoryUsage() (at most a second old); undefined before its first write. */
function heapOf(pid: number): { heapUsed: number; heapTotal: number } | undefined {
  try {
    return JSON.parse(readFileSync(probeFile(pid), 'utf8')) as { heapUsed: number; heapTotal: number };
  } catch {
    return undefined;
  }
}

export function sampleMemory(pid: number, at: number): MemorySample | undefined {
  const rss = residentBytes(pid);
  if (rss === undefined) return undefined;
  const heap = heapOf(pid);
  return { at, rss, ...(heap ? { heapUsed: heap.heapUsed, heapTotal: heap.heapTotal } : {}) };
}

/** The least-squares slope of y over x and its standard error (infinite with fewer than three points). */
function fit(points: { x: number; y: number }[]): { slope: number; se: number } {
  const n = points.length;
  if (n < 3) return { slope: 0, se: Infinity };
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const p of points) {
    sxy += (p.x - mx) * (p.y - my);
    sxx += (p.x - mx) ** 2;
  }
  if (sxx === 0) return { slope: 0, se: Infinity };
  const slope = sxy / sxx;
  const residuals = points.reduce((s, p) => s + (p.y - my - slope * (p.x - mx)) ** 2, 0);
  return { slope, se: Math.sqrt(residuals / (n - 2) / sxx) };
}

/** Transient allocations (argon2's 64 MiB per password hash, a task's zip) last seconds; the lowest sample of this window is what stays. */
export const FLOOR_SECONDS = 10;

/**
 * The lowest RSS sample and the lowest heap used (the heap after a collection) of each FLOOR_SECONDS
 * window, counted back from the last sample so that only the first window may be short.
 */
function floors(samples: MemorySample[]): MemorySample[] {
  const end = samples.at(-1)!.at;
  const windows = new Map<number, MemorySample>();
  for (const s of samples) {
    const w = Math.floor((end - s.at) / FLOOR_SECONDS);
    const low = windows.get(w);
    const heapUsed =
      low?.heapUsed === undefined
        ? s.heapUsed
        : s.heapUsed === undefined
          ? low.heapUsed
          : Math.min(low.heapUsed, s.heapUsed);
    windows.set(w, {
      at: low?.at ?? s.at,
      rss: Math.min(low?.rss ?? Infinity, s.rss),
      ...(heapUsed === undefined ? {} : { heapUsed }),
    });
  }
  return [...windows.values()];
}

export interface Trend {
  /** The first half's highest window floor, and the last window's floor (bytes). */
  firstHalfPeak: number;
  last: number;
  /** Least-squares slopes over the second half's window floors and their standard errors, MiB per minute. */
  rss: { slope: number; se: number };
  heap?: { slope: number; se: number };
  /** Window floors in the second half. */
  points: number;
}

/** The memory trend of the run: window floors, compared between the halves and fitted over the second. */
export function trend(samples: MemorySample[]): Trend {
  const lows = floors(samples);
  const half = samples.at(-1)!.at / 2;
  const second = lows.filter((s) => s.at >= half);
  const perMinute = (key: 'rss' | 'heapUsed') =>
    fit(second.filter((s) => s[key] !== undefined).map((s) => ({ x: s.at / 60, y: s[key]! / 2 ** 20 })));
  return {
    firstHalfPeak: Math.max(...lows.filter((s) => s.at < half).map((s) => s.rss)),
    last: lows.at(-1)!.rss,
    rss: perMinute('rss'),
    ...(second.some((s) => s.heapUsed !== undefined) ? { heap: perMinute('heapUsed') } : {}),
    points: second.length,
  };
}
