import { describe, expect, it } from "vitest";
import { entityMarkdown, entityRef } from "./backstage.js";

describe("Backstage entities", () => {
  it("writes an entity as Markdown with what a question would ask of it", () => {
    const entity = {
      kind: "Component",
      metadata: {
        name: "checkout-api",
        title: "Checkout API",
        description: "Takes payments",
        tags: ["java", "payments"],
        links: [{ url: "https://grafana.example.com/d/checkout", title: "Dashboard" }],
      },
      spec: { type: "service", owner: "group:default/payments", lifecycle: "production", replicas: 3 },
      relations: [{ type: "ownedBy", targetRef: "group:default/payments" }],
    };
    expect(entityRef(entity)).toBe("component:default/checkout-api");
    expect(entityMarkdown(entity)).toBe(
      [
        "# Checkout API",
        "",
        "Takes payments",
        "",
        "- Kind: Component",
        "- Type: service",
        "- Owner: group:default/payments",
        "- Lifecycle: production",
        "- Tags: java, payments",
        "- ownedBy: group:default/payments",
        "",
        "## Links",
        "- Dashboard: https://grafana.example.com/d/checkout",
      ].join("\n"),
    );
    expect(entityMarkdown({ kind: "Group", metadata: { name: "sre", namespace: "ops" } })).toBe(
      "# sre\n\n- Kind: Group",
    );
  });
});
