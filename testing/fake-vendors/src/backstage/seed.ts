import type { BackstageState, Entity } from "./state.js";

let uid = 0;
function entity(
  kind: string,
  name: string,
  extra: Omit<Partial<Entity>, "metadata"> & { metadata?: Partial<Entity["metadata"]> } = {},
): Entity {
  uid += 1;
  return {
    apiVersion: "backstage.io/v1alpha1",
    kind,
    ...extra,
    metadata: { name, namespace: "default", uid: `uid-${uid}`, ...extra.metadata },
  };
}

/** A small catalog: two services of the payments group, a website of web, a database, a system, two groups and a user. */
export function seedBackstage(): BackstageState {
  return {
    entities: [
      entity("Component", "checkout-api", {
        metadata: {
          title: "Checkout API",
          description: "Takes payments for the web shop",
          tags: ["java", "payments"],
          annotations: { "backstage.io/source-location": "url:https://github.com/acme/checkout-api/" },
          links: [
            { url: "https://grafana.example.com/d/checkout", title: "Dashboard" },
            { url: "https://runbooks.example.com/checkout-api", title: "Runbook" },
          ],
        },
        spec: {
          type: "service",
          lifecycle: "production",
          owner: "group:default/payments",
          system: "payments-platform",
        },
        relations: [
          { type: "ownedBy", targetRef: "group:default/payments" },
          { type: "partOf", targetRef: "system:default/payments-platform" },
          { type: "dependsOn", targetRef: "resource:default/checkout-db" },
          { type: "dependencyOf", targetRef: "component:default/web-shop" },
        ],
      }),
      entity("Component", "refunds-worker", {
        metadata: { description: "Processes refunds from the queue", tags: ["go", "payments"] },
        spec: {
          type: "service",
          lifecycle: "experimental",
          owner: "group:default/payments",
          system: "payments-platform",
        },
        relations: [
          { type: "ownedBy", targetRef: "group:default/payments" },
          { type: "partOf", targetRef: "system:default/payments-platform" },
        ],
      }),
      entity("Component", "web-shop", {
        metadata: { title: "Web shop", description: "The customer-facing shop" },
        spec: { type: "website", lifecycle: "production", owner: "group:default/web" },
        relations: [
          { type: "ownedBy", targetRef: "group:default/web" },
          { type: "dependsOn", targetRef: "component:default/checkout-api" },
        ],
      }),
      entity("Resource", "checkout-db", {
        metadata: { description: "PostgreSQL for checkout" },
        spec: { type: "database", owner: "group:default/payments" },
        relations: [
          { type: "ownedBy", targetRef: "group:default/payments" },
          { type: "dependencyOf", targetRef: "component:default/checkout-api" },
        ],
      }),
      entity("System", "payments-platform", {
        metadata: { description: "Everything that takes money" },
        spec: { owner: "group:default/payments" },
        relations: [{ type: "ownedBy", targetRef: "group:default/payments" }],
      }),
      entity("Group", "payments", {
        metadata: {
          title: "Payments team",
          links: [{ url: "https://slack.example.com/channels/payments", title: "#payments" }],
        },
        spec: { type: "team", profile: { email: "payments@example.com" }, children: [] },
        relations: [
          { type: "hasMember", targetRef: "user:default/alice" },
          { type: "ownerOf", targetRef: "component:default/checkout-api" },
        ],
      }),
      entity("Group", "web", { spec: { type: "team", children: [] } }),
      entity("User", "alice", {
        spec: {
          profile: { displayName: "Alice Oncall", email: "alice@example.com" },
          memberOf: ["payments"],
        },
        relations: [{ type: "memberOf", targetRef: "group:default/payments" }],
      }),
    ],
    refreshed: [],
  };
}
