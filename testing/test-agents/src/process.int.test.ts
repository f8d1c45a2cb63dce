import { join } from "node:path";
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

  it("reports the output of an agent that exits before it is ready", async () => {
    await expect(startAgentProcess(fixture, { entry: "missing.js" })).rejects.toThrow(/exited with code 1/);
  });
});
