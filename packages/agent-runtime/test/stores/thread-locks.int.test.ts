import { describe, expect, it } from "vitest";
import { storeBackends } from "./backends.js";

// One contract for an agent's per-thread leases, run against the memory and the MongoDB one.

const signal = () => new AbortController().signal;

describe.each(storeBackends("thread-locks"))("the $name thread locks", (backend) => {
  it("holds a thread for one turn at a time: another is refused (reject) until the lease is released", async () => {
    const { locks } = await backend.open("locks-alpha", { policy: "reject" });
    const lease = await locks.acquire("thread-1", signal());
    await expect(locks.acquire("thread-1", signal())).rejects.toMatchObject({ code: "turn.busy" });
    // Another thread is free meanwhile.
    await (await locks.acquire("thread-2", signal())).release();
    await lease.release();
    await (await locks.acquire("thread-1", signal())).release();
  });

  it("lets an enqueued turn wait for the thread and take it once released", async () => {
    const { locks } = await backend.open("locks-queue", { policy: "enqueue", waitMs: 10_000 });
    const lease = await locks.acquire("thread-q", signal());
    const waiting = locks.acquire("thread-q", signal());
    let taken = false;
    void waiting.then(() => (taken = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(taken).toBe(false);
    await lease.release();
    await (await waiting).release();
  });

  it("keeps each agent's leases apart: two agents may hold the same thread id", async () => {
    const alpha = (await backend.open("locks-one", { policy: "reject" })).locks;
    const beta = (await backend.open("locks-two", { policy: "reject" })).locks;
    const one = await alpha.acquire("shared", signal());
    const two = await beta.acquire("shared", signal());
    await one.release();
    await two.release();
  });

  it("drops a deleted conversation's lease, even one its holder never released (a crashed turn)", async () => {
    const { locks } = await backend.open("locks-forget", { policy: "reject" });
    const abandoned = await locks.acquire("thread-gone", signal());
    await locks.forget("thread-gone");
    const next = await locks.acquire("thread-gone", signal());
    // The old holder's late release does not free the thread under the new one.
    await abandoned.release();
    await expect(locks.acquire("thread-gone", signal())).rejects.toMatchObject({ code: "turn.busy" });
    await next.release();
    await locks.forget("never-held");
  });
});
