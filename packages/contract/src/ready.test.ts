import { fork } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AGENT_READY, readyMessage } from "./ready.js";

describe("the ready signal", () => {
  it("reaches the parent over IPC, and the child still exits by itself", async () => {
    const packageDir = join(import.meta.dirname, "..");
    const script = join(packageDir, "test", "ready-child.ts");
    // tsx resolves from this package, whatever folder the tests were started in.
    const child = fork(script, { cwd: packageDir, stdio: "ignore", execArgv: ["--import", "tsx"] });
    const received = new Promise((resolve) => child.once("message", resolve));
    const exited = new Promise((resolve) => child.once("exit", resolve));
    expect(readyMessage(await received)).toEqual({
      type: AGENT_READY,
      agent: "jira",
      port: 8006,
      url: "http://127.0.0.1:8006",
    });
    // An unreferenced channel: nothing else keeps the child alive, so it ends on its own.
    expect(await exited).toBe(0);
  });

  it("ignores anything that is not a well-formed ready message", () => {
    for (const message of [
      null,
      "ready",
      { type: "other", agent: "jira", port: 1, url: "u" },
      { type: AGENT_READY, agent: "jira", port: 0, url: "u" },
      { type: AGENT_READY, agent: "jira", port: "8006", url: "u" },
      { type: AGENT_READY, port: 8006, url: "u" },
    ]) {
      expect(readyMessage(message)).toBeUndefined();
    }
  });
});
