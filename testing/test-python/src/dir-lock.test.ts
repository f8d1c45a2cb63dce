import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { withDirLock } from "./dir-lock.js";

describe("withDirLock", () => {
  const scratch = mkdtempSync(join(tmpdir(), "switchboard-dir-lock-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("runs competing holders one after the other", async () => {
    const lock = join(scratch, "serial.lock");
    const events: string[] = [];
    const hold = (name: string) =>
      withDirLock(
        lock,
        async () => {
          events.push(`${name} in`);
          await sleep(50);
          events.push(`${name} out`);
        },
        { pollMs: 10 },
      );
    await Promise.all([hold("a"), hold("b")]);
    expect(events).toEqual(["a in", "a out", "b in", "b out"]);
  });

  it("takes over a lock left by a process that died", async () => {
    const lock = join(scratch, "stale.lock");
    mkdirSync(lock);
    writeFileSync(join(lock, "pid"), "2147483646");
    await expect(withDirLock(lock, async () => "ran", { timeoutMs: 2_000, pollMs: 10 })).resolves.toBe("ran");
  });

  it("gives up with a message naming the lock and its holder", async () => {
    const lock = join(scratch, "held.lock");
    mkdirSync(lock);
    writeFileSync(join(lock, "pid"), String(process.pid));
    await expect(withDirLock(lock, async () => "ran", { timeoutMs: 100, pollMs: 10 })).rejects.toThrow(
      new RegExp(`waiting for .*held\\.lock \\(held by pid ${process.pid}\\)`),
    );
  });
});
