import { describe, expect, it } from "vitest";
import type { PagerDutyConnection } from "./client.js";
import { pagerDutyTools } from "./tools.js";

// What each tool tells the policy a call acts on: nothing is called, so no connection is needed.
const tools = pagerDutyTools({} as PagerDutyConnection);
const resourceOf = (name: string, args: Record<string, unknown>) =>
  tools.find((one) => one.tool.name === name)?.resource?.(args);

describe("PagerDuty tools name the service or incident a call acts on", () => {
  it("names the incident, for reads and changes", () => {
    expect(resourceOf("get_incident", { id: "Q1ABCDEF2GHIJK" })).toEqual({ incident: "Q1ABCDEF2GHIJK" });
    expect(resourceOf("acknowledge_incident", { id: "Q1ABCDEF2GHIJK" })).toEqual({
      incident: "Q1ABCDEF2GHIJK",
    });
    expect(resourceOf("resolve_incident", { id: "1234", resolution: "restarted" })).toEqual({
      incident: "1234",
    });
  });

  it("names a service by id as PagerDuty writes ids, else by its name in lower case", () => {
    expect(resourceOf("create_incident", { service: "PSVC001", title: "down" })).toEqual({
      service: "PSVC001",
    });
    expect(resourceOf("create_incident", { service: "Checkout API", title: "down" })).toEqual({
      service: "checkout api",
    });
    expect(resourceOf("list_incidents", { service: "Checkout API" })).toEqual({ service: "checkout api" });
    expect(resourceOf("list_incidents", {})).toEqual({});
  });

  it("leaves on-call and the service list to the tool as a whole", () => {
    expect(resourceOf("who_is_on_call", {})).toBeUndefined();
    expect(resourceOf("list_services", {})).toBeUndefined();
  });
});
