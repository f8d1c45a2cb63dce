import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on every Linux this runs on). */
const TICKS_PER_SECOND = 100;

interface ProcEntry {
  ppid: number;
  /** utime + stime, ms. */
  cpuMs: number;
  /** Resident set, bytes (rss pages × 4 KiB). */
  rssBytes: number;
}

/** One /proc/<pid>/stat, or undefined if the process is gone. */
function readStat(pid: number): ProcEntry | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces: split after its ")".
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  // fields[0] is field 3 (state): ppid is field 4, utime 14, stime 15, rss 24.
  const at = (field: number) => Number(fields[field - 3]);
  return {
    ppid: at(4),
    cpuMs: ((at(14) + at(15)) * 1000) / TICKS_PER_SECOND,
    rssBytes: at(24) * 4096,
  };
}

/** The pids of `roots` and every process below them (a server's workers or stdio MCP servers). */
export function processTree(roots: number[]): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const stat = readStat(pid);
    if (stat) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), pid]);
  }
  const found: number[] = [];
  const queue = [...roots];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    if (found.includes(pid)) continue;
    found.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return found;
}

/** CPU ms (user + system) the processes and their descendants have used so far. */
export function cpuMs(roots: number[]): number {
  return processTree(roots).reduce((sum, pid) => sum + (readStat(pid)?.cpuMs ?? 0), 0);
}

/** Resident memory of the processes and their descendants, MB. */
export function rssMb(roots: number[]): number {
  return processTree(roots).reduce((sum, pid) => sum + (readStat(pid)?.rssBytes ?? 0), 0) / 2 ** 20;
}

/** The machine's CPU time so far over all its cores (/proc/stat), ms: idle (with I/O wait) and in all. */
export function machineCpu(): { idleMs: number; totalMs: number } {
  const [, ...fields] = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "").trim().split(/\s+/);
  // user nice system idle iowait irq softirq steal (guest time is counted in user already).
  const ticks = fields.slice(0, 8).map(Number);
  const toMs = (value: number) => (value * 1000) / TICKS_PER_SECOND;
  return {
    idleMs: toMs((ticks[3] ?? 0) + (ticks[4] ?? 0)),
    totalMs: toMs(ticks.reduce((sum, value) => sum + value, 0)),
  };
}
