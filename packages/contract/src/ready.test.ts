import { fork } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AGENT_READY, READY_CHANNEL_ENV, readyMessage } from "./ready.js";

describe("the ready signal", () => {
  it("reaches the parent over IPC, and the child still exits by itself", async () => {
    const packageDir = join(import.meta.dirname, "..");
    const script = join(packageDir, "test", "ready-child.ts");
    // tsx resolves from this package, whatever folder the tests were started in.
    const child = fork(script, {
      cwd: packageDir,
      env: { ...process.env, [READY_CHANNEL_ENV]: "ipc" },
      stdio: "ignore",
      execArgv: ["--import", "tsx"],
    });
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

  it("leaves alone an IPC channel its parent did not open for it (a test runner's worker)", async () => {
    const packageDir = join(import.meta.dirname, "..");
    const env = { ...process.env };
    delete env[READY_CHANNEL_ENV];
    const child = fork(join(packageDir, "test", "ready-child.ts"), {
      cwd: packageDir,
      env,
      stdio: "ignore",
      execArgv: ["--import", "tsx"],
    });
    const messages: unknown[] = [];
    child.on("message", (message) => messages.push(message));
    expect(await new Promise((resolve) => child.once("exit", resolve))).toBe(0);
    expect(messages).toEqual([]);
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
