import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

export interface DirLockOptions {
  /** Give up waiting after this long. A cold pip install of the test peers takes about a minute. */
  timeoutMs?: number;
  pollMs?: number;
}

/**
 * Runs `work` while holding an exclusive lock across processes. mkdir is atomic, so the process that
 * creates the folder owns it; a lock whose owner process is gone (killed mid-install) is taken over.
 */
export async function withDirLock<T>(
  lockDir: string,
  work: () => Promise<T>,
  { timeoutMs = 15 * 60_000, pollMs = 250 }: DirLockOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (!tryAcquire(lockDir)) {
    if (Date.now() > deadline) {
      throw new Error(
        `Timed out after ${timeoutMs} ms waiting for ${lockDir} (held by pid ${ownerOf(lockDir) ?? "?"}). ` +
          "If no install is running, delete that folder.",
      );
    }
    await sleep(pollMs);
  }
  try {
    return await work();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

function tryAcquire(lockDir: string): boolean {
  try {
    mkdirSync(lockDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const owner = ownerOf(lockDir);
    // The owner's pid is written right after mkdir; a folder without one is brand new or abandoned.
    const abandoned = owner === undefined ? ageMs(lockDir) > 10_000 : !isAlive(owner);
    if (abandoned) rmSync(lockDir, { recursive: true, force: true });
    return false;
  }
  writeFileSync(join(lockDir, "pid"), String(process.pid));
  return true;
}

function ownerOf(lockDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(lockDir, "pid"), "utf8"));
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
