import { describe, expect, it } from "vitest";
import type { KomodorClient } from "./client.js";
import { komodorTools } from "./tools.js";

// What each tool tells the policy a call acts on: nothing is called, so no connection is needed.
const tools = komodorTools({} as KomodorClient);
const resourceOf = (name: string, args: Record<string, unknown>) =>
  tools.find((one) => one.tool.name === name)?.resource?.(args);

describe("Komodor tools name the cluster, namespace, health risk, session or user a call acts on", () => {
  it("names the cluster, and the namespace as cluster/namespace", () => {
    expect(resourceOf("search_issues", { cluster: "prod-eu" })).toEqual({ cluster: "prod-eu" });
    expect(resourceOf("search_k8s_events", { cluster: "prod-eu", namespace: "shop" })).toEqual({
      cluster: "prod-eu",
      namespace: "prod-eu/shop",
    });
    expect(
      resourceOf("start_root_cause", {
        cluster: "prod-eu",
        namespace: "shop",
        kind: "Deployment",
        name: "checkout",
      }),
    ).toEqual({ cluster: "prod-eu", namespace: "prod-eu/shop" });
    expect(resourceOf("cost_allocation", { cluster: "staging" })).toEqual({ cluster: "staging" });
    expect(resourceOf("cost_allocation", {})).toEqual({});
  });

  it("names the health risk, the analysis session and the user asked about", () => {
    expect(resourceOf("get_health_risk", { risk: "vio-501" })).toEqual({ risk: "vio-501" });
    expect(resourceOf("set_health_risk_status", { risk: "vio-501", status: "ignored" })).toEqual({
      risk: "vio-501",
    });
    expect(resourceOf("get_root_cause", { session: "s-1" })).toEqual({ rca_session: "s-1" });
    expect(resourceOf("user_permissions", { email: "Alice@Example.com" })).toEqual({
      user: "alice@example.com",
    });
    // An RBAC change names both the user and the role, so a policy can guard either.
    expect(resourceOf("assign_rbac_role", { email: "Bob@Example.com", role: "account-admin" })).toEqual({
      user: "bob@example.com",
      rbac_role: "account-admin",
    });
    expect(resourceOf("remove_rbac_role", { email: "bob@example.com", role: "viewer" })).toEqual({
      user: "bob@example.com",
      rbac_role: "viewer",
    });
    expect(
      resourceOf("assign_rbac_role", { email: "bob@example.com", role: "viewer", until: "next week" }),
    ).toBeUndefined();
  });

  it("refuses names Kubernetes would not take, and asks before every change", () => {
    expect(resourceOf("search_issues", { cluster: "Prod EU" })).toBeUndefined();
    expect(resourceOf("list_clusters", {})).toBeUndefined();
    const changes = tools.filter((one) => one.confirm).map((one) => one.tool.name);
    expect(changes.sort()).toEqual([
      "assign_rbac_role",
      "remove_rbac_role",
      "set_health_risk_status",
      "start_root_cause",
    ]);
  });
});
