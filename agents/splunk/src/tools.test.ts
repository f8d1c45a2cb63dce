import { describe, expect, it } from "vitest";
import type { SplunkClient } from "./client.js";
import { splunkTools } from "./tools.js";

// What each tool tells the policy a call acts on: nothing is called, so no connection is needed.
const tools = splunkTools({} as SplunkClient);
const resourceOf = (name: string, args: Record<string, unknown>) =>
  tools.find((one) => one.tool.name === name)?.resource?.(args);

describe("Splunk tools name the detector, incident, muting rule or dimension a call acts on", () => {
  it("names the detector for its reads and changes, by id as Splunk writes ids", () => {
    expect(resourceOf("get_detector", { detector: "FkR3zLpAYAA" })).toEqual({ detector: "FkR3zLpAYAA" });
    expect(resourceOf("disable_detector", { detector: "FkR3zLpAYAA" })).toEqual({ detector: "FkR3zLpAYAA" });
    expect(resourceOf("enable_detector", { detector: "FkR3zLpAYAA", labels: ["p99"] })).toEqual({
      detector: "FkR3zLpAYAA",
    });
  });

  it("names the incident cleared, the muting rule ended and the dimension muted", () => {
    expect(resourceOf("clear_incident", { incident: "FkVtK7bAYAA" })).toEqual({ incident: "FkVtK7bAYAA" });
    expect(resourceOf("unmute_alerts", { rule: "FkMu7eZAYAA" })).toEqual({ muting_rule: "FkMu7eZAYAA" });
    expect(
      resourceOf("mute_alerts", { property: "service", value: "etl", minutes: 60, reason: "maintenance" }),
    ).toEqual({ dimension: "service:etl" });
  });

  it("leaves searches to the tool as a whole, refuses an id that is not one, and asks before every change", () => {
    expect(resourceOf("list_incidents", {})).toBeUndefined();
    expect(resourceOf("search_metrics", { query: "name:cpu*" })).toBeUndefined();
    expect(resourceOf("get_detector", { detector: "not an id!" })).toBeUndefined();
    const changes = tools.filter((one) => one.confirm).map((one) => one.tool.name);
    expect(changes.sort()).toEqual([
      "clear_incident",
      "disable_detector",
      "enable_detector",
      "mute_alerts",
      "unmute_alerts",
    ]);
  });
});
