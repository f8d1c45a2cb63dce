import { describe, expect, it } from "vitest";
import { agentNameProblem } from "./agent-name.js";

describe("agent names", () => {
  it("accepts lowercase names with digits and single dashes", () => {
    for (const name of ["pagerduty", "my-tool", "k8s", "a", "x".repeat(40)]) {
      expect(agentNameProblem(name), name).toBeUndefined();
    }
  });

  it("refuses names that cannot be a package, env prefix or collection name, saying why", () => {
    expect(agentNameProblem("My-Tool")).toMatch(/lowercase letters, digits and single '-'/);
    expect(agentNameProblem("1password")).toMatch(/starting with a letter/);
    expect(agentNameProblem("my_tool")).toMatch(/not valid/);
    expect(agentNameProblem("my--tool")).toMatch(/not valid/);
    expect(agentNameProblem("tool-")).toMatch(/not valid/);
    expect(agentNameProblem("x".repeat(41))).toMatch(/at most 40/);
    expect(agentNameProblem("")).toMatch(/Give the agent a name/);
    expect(agentNameProblem("agent-x")).toMatch(/drop it/);
  });

  it("refuses reserved words", () => {
    for (const name of ["supervisor", "utils", "all-agents", "mongodb", "agent", "test", "fleet-config"]) {
      expect(agentNameProblem(name), name).toMatch(/reserved/);
    }
    expect(agentNameProblem("test-llm")).toMatch(/test package/);
  });
});
