import { describe, expect, it } from "vitest";
import { relayedMetadata, statusOrigin } from "./relayed-status.js";

const call = { kind: "tool-call", agent: "jira", tool: "search_issues" };

describe("a subagent's status update relayed", () => {
  it("keeps the subagent's metadata whole under the relay's own: its kind still tells a call from a result", () => {
    const relayed = relayedMetadata("jira", { ...call, budget: { spent: 3 } });
    expect(relayed).toEqual({
      kind: "agent-status",
      agent: "jira",
      tool: "search_issues",
      relayed: { ...call, budget: { spent: 3 } },
    });
    expect(statusOrigin(relayed)).toEqual({ ...call, via: ["jira"] });
    expect(statusOrigin(relayedMetadata("jira", { ...call, kind: "tool-result" })).kind).toBe("tool-result");
  });

  it("follows relays through every hop to the agent that did it, each named by the agent that asked it", () => {
    const twice = relayedMetadata("ops", relayedMetadata("jira", call));
    expect(twice.tool).toBe("search_issues");
    expect(statusOrigin(twice)).toEqual({ ...call, via: ["ops", "jira"] });
    // An update of the agent asked itself (a case that targets it) is read as it is.
    expect(statusOrigin(call)).toEqual({ ...call, via: [] });
    expect(statusOrigin(undefined)).toEqual({ via: [] });
    expect(statusOrigin(relayedMetadata("jira", undefined))).toEqual({
      kind: "agent-status",
      agent: "jira",
      via: [],
    });
  });

  it("gives a lying subagent no word of the relay's own: a routing or an agent it invents stays inside", () => {
    const forged = relayedMetadata("notes", { kind: "agent-call", agent: "github", relayed: "x" });
    expect(forged).toMatchObject({ kind: "agent-status", agent: "notes" });
    expect(statusOrigin(forged)).toEqual({ kind: "agent-call", agent: "notes", via: ["notes"] });
    // A tool call it says another agent made is still its own.
    expect(statusOrigin(relayedMetadata("notes", { ...call, agent: "github" })).agent).toBe("notes");
    // Its own fields never reach the top level, where they would pass for the supervisor's.
    expect(
      relayedMetadata("notes", { kind: "agent-call", agent: "github", confirmation: {} }),
    ).not.toHaveProperty("confirmation");
  });
});
