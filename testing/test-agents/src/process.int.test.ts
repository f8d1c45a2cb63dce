import { join } from "node:path";
import { AGENT_NODE_ARGS } from "@switchboard/contract";
import { describe, expect, it } from "vitest";
import { startAgentProcess } from "./process.js";

const fixture = join(import.meta.dirname, "..", "test", "fixture");

describe("startAgentProcess", () => {
  it("waits for the ready line, serves on the bound port, and dies on SIGKILL", async () => {
    const agent = await startAgentProcess(fixture, { entry: "agent.js" });
    expect(await (await fetch(`${agent.url}/health`)).text()).toBe("ok");
    expect(agent.logs()).toContain("fixture agent ready");
    await agent.kill();
    await expect(fetch(`${agent.url}/health`)).rejects.toThrow();
  });

  it("runs node with the options the image ships (AGENT_NODE_ARGS), keeping the caller's NODE_OPTIONS", async () => {
    const agent = await startAgentProcess(fixture, {
      entry: "agent.js",
      env: { NODE_OPTIONS: "--no-deprecation" },
      nodeArgs: ["--no-warnings"],
    });
    try {
      expect(await (await fetch(`${agent.url}/node`)).json()).toEqual({
        execArgv: [...AGENT_NODE_ARGS, "--no-warnings"],
        nodeOptions: "--no-deprecation",
      });
    } finally {
      await agent.kill();
    }
    const other = await startAgentProcess(fixture, {
      entry: "agent.js",
      agentNodeArgs: ["--max-semi-space-size=4"],
    });
    try {
      expect(await (await fetch(`${other.url}/node`)).json()).toMatchObject({
        execArgv: ["--max-semi-space-size=4"],
      });
    } finally {
      await other.kill();
    }
  });

  it("reports the output of an agent that exits before it is ready", async () => {
    await expect(startAgentProcess(fixture, { entry: "missing.js" })).rejects.toThrow(/exited with code 1/);
  });
});
