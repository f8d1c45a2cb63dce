import type { ConfluenceState } from "./state.js";

/** Two spaces and three pages: a runbook, an on-call guide and a design note. */
export function seedConfluence(now = new Date()): ConfluenceState {
  const at = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
  return {
    spaces: [
      { key: "ENG", name: "Engineering" },
      { key: "OPS", name: "Operations" },
    ],
    pages: [
      {
        id: "65537",
        title: "Checkout API runbook",
        spaceKey: "OPS",
        body: "<h1>Checkout API runbook</h1><p>When 5xx rise, roll back with Argo CD.</p><p>Escalate to #payments.</p>",
        version: 3,
        updatedAt: at(2),
        updatedBy: "Alice Oncall",
      },
      {
        id: "65538",
        title: "On-call guide",
        spaceKey: "OPS",
        body: "<p>The primary on-call acknowledges pages within 5 minutes.</p>",
        version: 7,
        updatedAt: at(10),
        updatedBy: "Bob Secondary",
      },
      {
        id: "65539",
        title: "EKS 1.30 upgrade design",
        spaceKey: "ENG",
        body: "<p>We upgrade the clusters one environment at a time.</p>",
        version: 1,
        updatedAt: at(30),
        updatedBy: "Carol Data",
      },
    ],
    changes: [],
    nextId: 70000,
  };
}
