import { describe, expect, it } from "vitest";
import type { BackstageConnection } from "./client.js";
import { backstageTools } from "./tools.js";

// What each tool tells the policy a call acts on: nothing is called, so no connection is needed.
const tools = backstageTools({} as BackstageConnection);
const resourceOf = (name: string, args: Record<string, unknown>) =>
  tools.find((one) => one.tool.name === name)?.resource?.(args);

describe("Backstage tools name the entity kind and namespace a call acts on", () => {
  it("names kind, namespace and the full ref in lower case (Backstage refs ignore case)", () => {
    expect(resourceOf("get_entity", { ref: "Component:Payments/Checkout-API" })).toEqual({
      kind: "component",
      namespace: "payments",
      entity: "component:payments/checkout-api",
    });
    expect(resourceOf("refresh_entity", { ref: "checkout-api" })).toEqual({
      kind: "component",
      namespace: "default",
      entity: "component:default/checkout-api",
    });
    expect(resourceOf("get_entity", { ref: "group:platform" })).toEqual({
      kind: "group",
      namespace: "default",
      entity: "group:default/platform",
    });
  });

  it("names the kind a search is limited to, and nothing for a search of every kind", () => {
    expect(resourceOf("search_catalog", { kind: "API" })).toEqual({ kind: "api" });
    expect(resourceOf("search_catalog", { text: "checkout" })).toEqual({});
  });
});
