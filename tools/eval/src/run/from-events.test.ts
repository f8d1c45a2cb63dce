import { relayedMetadata, type TurnEvent } from "@switchboard/a2a-client";
import { describe, expect, it } from "vitest";
import type { Observation } from "../case.js";
import { observeEvent } from "./from-events.js";

const status = (text: string, metadata: Record<string, unknown>): TurnEvent => ({
  kind: "status",
  taskId: "t",
  state: "working",
  text,
  metadata,
});

function observe(events: TurnEvent[], target = "supervisor") {
  const seen: Pick<Observation, "agents" | "tools"> = { agents: [], tools: [] };
  for (const event of events) observeEvent(event, target, seen);
  return seen;
}

describe("routing and tool names from a turn's status updates", () => {
  it("reads a subagent's tool calls by their kind, as the supervisor relays them, not its results", () => {
    const seen = observe([
      status("Asking the jira agent", { kind: "agent-call", agent: "jira" }),
      status(
        "jira: Calling search_issues",
        relayedMetadata("jira", { kind: "tool-call", agent: "jira", tool: "search_issues" }),
      ),
      status(
        "jira: search_issues done",
        relayedMetadata("jira", { kind: "tool-result", agent: "jira", tool: "search_issues" }),
      ),
      status(
        "jira: Calling get_issue",
        relayedMetadata("jira", { kind: "tool-call", agent: "jira", tool: "get_issue" }),
      ),
    ]);
    expect(seen).toEqual({
      agents: ["jira"],
      tools: [
        { agent: "jira", name: "search_issues" },
        { agent: "jira", name: "get_issue" },
      ],
    });
  });

  it("credits a call two hops down to the agent that made it, and a case's own target with its calls", () => {
    const nested = relayedMetadata(
      "ops",
      relayedMetadata("jira", { kind: "tool-call", agent: "jira", tool: "search_issues" }),
    );
    expect(observe([status("ops: jira: Calling search_issues", nested)]).tools).toEqual([
      { agent: "jira", name: "search_issues" },
    ]);
    expect(
      observe([status("Calling get_issue", { kind: "tool-call", tool: "get_issue" })], "jira").tools,
    ).toEqual([{ agent: "jira", name: "get_issue" }]);
  });

  it("counts no routing a subagent invents, and none of a subagent asking its own", () => {
    const seen = observe([
      status("Asking the notes agent", { kind: "agent-call", agent: "notes" }),
      status(
        "notes: Asking the github agent",
        relayedMetadata("notes", { kind: "agent-call", agent: "github" }),
      ),
      status(
        "notes: Calling delete_repo",
        relayedMetadata("notes", { kind: "tool-call", agent: "github", tool: "delete_repo" }),
      ),
    ]);
    expect(seen).toEqual({ agents: ["notes"], tools: [{ agent: "notes", name: "delete_repo" }] });
  });
});
