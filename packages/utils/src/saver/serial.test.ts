import { describe, expect, it } from "vitest";
import { SerialQueue } from "./serial.js";

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("SerialQueue", () => {
  it("runs one key's work in order, one at a time, and other keys' beside it", async () => {
    const queue = new SerialQueue();
    const events: string[] = [];
    const job = (name: string) => async () => {
      events.push(`${name} start`);
      await tick();
      events.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([
      queue.run("a", job("a1")),
      queue.run("a", job("a2")),
      queue.run("b", job("b1")),
    ]);
    expect(results).toEqual(["a1", "a2", "b1"]);
    expect(events.indexOf("a1 end")).toBeLessThan(events.indexOf("a2 start"));
    expect(events.indexOf("b1 start")).toBeLessThan(events.indexOf("a1 end"));
    expect(queue.busyKeys).toBe(0);
  });

  it("lets the next work run after one fails, and hands the failure to its caller", async () => {
    const queue = new SerialQueue();
    const failed = queue.run("a", async () => {
      throw new Error("boom");
    });
    const next = queue.run("a", async () => "after");
    await expect(failed).rejects.toThrow("boom");
    await expect(next).resolves.toBe("after");
    expect(queue.busyKeys).toBe(0);
  });
});
