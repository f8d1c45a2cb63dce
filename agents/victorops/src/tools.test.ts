import { describe, expect, it } from "vitest";
import type { VictorOpsClient } from "./client.js";
import { victorOpsTools } from "./tools.js";

// What each tool tells the policy a call acts on: nothing is called, so no connection is needed.
const tools = victorOpsTools({} as VictorOpsClient);
const resourceOf = (name: string, args: Record<string, unknown>) =>
  tools.find((one) => one.tool.name === name)?.resource?.(args);

describe("VictorOps tools name the incident, team, policy or user a call acts on", () => {
  it("names the incident for reads and changes", () => {
    expect(resourceOf("get_incident", { incident: "411" })).toEqual({ incident: "411" });
    expect(resourceOf("acknowledge_incident", { incident: "411" })).toEqual({ incident: "411" });
    expect(resourceOf("resolve_incident", { incident: "411", message: "fixed" })).toEqual({
      incident: "411",
    });
    expect(resourceOf("add_note", { incident: "411", text: "rolled back" })).toEqual({ incident: "411" });
  });

  it("names teams, policies and users by their slug in lower case, as Splunk On-Call writes them", () => {
    expect(resourceOf("list_incidents", { team: "Team-Platform" })).toEqual({ team: "team-platform" });
    expect(resourceOf("who_is_on_call", { team: "team-data" })).toEqual({ team: "team-data" });
    expect(resourceOf("create_incident", { summary: "down", policy: "POL-Platform-Primary" })).toEqual({
      policy: "pol-platform-primary",
    });
    expect(resourceOf("create_incident", { summary: "down", user: "Alice" })).toEqual({ user: "alice" });
    expect(resourceOf("list_incidents", {})).toEqual({});
  });

  it("names the organisation when a call names one of several (VICTOROPS_ORGS)", () => {
    expect(resourceOf("acknowledge_incident", { incident: "411", org: "acme" })).toEqual({
      org: "acme",
      incident: "411",
    });
    expect(resourceOf("list_incidents", { team: "team-platform", org: "globex" })).toEqual({
      org: "globex",
      team: "team-platform",
    });
    expect(resourceOf("list_teams", { org: "acme" })).toEqual({ org: "acme" });
  });

  it("leaves teams and services to the tool as a whole, and asks before every change", () => {
    expect(resourceOf("list_teams", {})).toEqual({});
    expect(resourceOf("list_services", {})).toEqual({});
    const changes = tools.filter((one) => one.confirm).map((one) => one.tool.name);
    expect(changes.sort()).toEqual([
      "acknowledge_incident",
      "add_note",
      "create_incident",
      "resolve_incident",
    ]);
  });
});
