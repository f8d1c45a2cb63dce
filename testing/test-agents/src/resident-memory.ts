import { execFileSync } from "node:child_process";

/** A process's resident memory (RSS) in MB, as `ps` reports it. */
export function residentMb(pid: number): number {
  return Number(execFileSync("ps", ["-o", "rss=", "-p", String(pid)], { encoding: "utf8" }).trim()) / 1024;
}
