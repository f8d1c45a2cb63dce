import { describe, expect, it } from "vitest";
import type { ArgoCdClient } from "./client.js";
import { argoCdTools } from "./tools.js";

// What each tool tells the policy a call acts on: nothing is called, so no client is needed.
const tools = argoCdTools({} as ArgoCdClient);
const resourceOf = (name: string, args: Record<string, unknown>) =>
  tools.find((one) => one.tool.name === name)?.resource?.(args);

describe("Argo CD tools name the application (or project) a call acts on", () => {
  it("names the application, for reads and changes", () => {
    expect(resourceOf("get_application", { name: "checkout-api" })).toEqual({ application: "checkout-api" });
    expect(resourceOf("get_application_history", { name: "checkout-api" })).toEqual({
      application: "checkout-api",
    });
    expect(resourceOf("sync_application", { name: "prod" })).toEqual({ application: "prod" });
    expect(resourceOf("rollback_application", { name: "prod", history_id: 3 })).toEqual({
      application: "prod",
    });
  });

  it("names the project a listing is limited to, and nothing for all applications", () => {
    expect(resourceOf("list_applications", { project: "payments" })).toEqual({ project: "payments" });
    expect(resourceOf("list_applications", {})).toEqual({});
  });

  it("decides nothing on a name Kubernetes would refuse: the call fails before it acts", () => {
    expect(resourceOf("sync_application", { name: "Prod" })).toBeUndefined();
  });
});
