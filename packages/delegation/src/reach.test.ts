import type { TurnContext } from "@switchboard/agent-runtime";
import { createLogger } from "@switchboard/common";
import { describe, expect, it } from "vitest";
import { askSubagent } from "./delegate.js";
import type { HopTelemetry } from "./hop-telemetry.js";
import { Roster } from "./roster.js";
import { subagentsPrompt } from "./subagents-prompt.js";

const roster = () =>
  new Roster(
    [
      { name: "jira", prefix: "JIRA", url: "http://127.0.0.1:1", vendor: "jira", forwardUserToken: false },
      { name: "aws", prefix: "AWS", url: "http://127.0.0.1:1", vendor: "aws", forwardUserToken: false },
    ],
    createLogger({ level: "silent" }),
  );
const notAws = (agent: string) => agent !== "aws";
const anonymousTurn: TurnContext = {
  contextId: "c",
  taskId: "t",
  threadId: "t",
  principal: { subject: "local", groups: [], authenticated: false },
  report: () => undefined,
  stored: async () => undefined,
  signal: new AbortController().signal,
};

describe("agents a user may not reach", () => {
  it("are left out of the prompt's subagents", () => {
    const prompt = subagentsPrompt(roster(), notAws);
    expect(prompt).toContain("- jira:");
    expect(prompt).not.toContain("aws");
    expect(subagentsPrompt(roster())).toContain("- aws:");
  });

  it("are answered as not enabled when the model names one anyway, with no hop", async () => {
    const hops = { roster: roster(), telemetry: {} as HopTelemetry, mayReach: notAws };
    const hop = await askSubagent(hops, anonymousTurn, "aws", "stop i-123");
    expect(hop).toEqual({ kind: "answer", text: 'No agent named "aws" is enabled (enabled: jira).' });
    // With the agent's own advice on adding one (the supervisor's: its ENABLE_ variables).
    const advised = await askSubagent(
      { ...hops, howToAdd: (name) => `To add one, set ENABLE_${name.toUpperCase()}=true.` },
      anonymousTurn,
      "aws",
      "stop i-123",
    );
    expect(advised).toEqual({
      kind: "answer",
      text: 'No agent named "aws" is enabled (enabled: jira). To add one, set ENABLE_AWS=true.',
    });
  });
});
