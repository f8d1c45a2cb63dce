import type { AgentDefinition } from "@switchboard/agent-runtime";
import { komodorClient } from "./client.js";
import { KOMODOR_PROMPT } from "./prompt.js";
import { komodorTools } from "./tools.js";

export const komodorAgent: AgentDefinition = {
  name: "komodor",
  title: "Komodor",
  description:
    "Komodor: Kubernetes clusters, issues and events, health risks, cost allocation and right-sizing, jobs, Klaudia root-cause analysis, RBAC and the audit log; starts analyses, changes risk status and gives or removes users' RBAC roles behind confirmation",
  systemPrompt: KOMODOR_PROMPT,
  skills: [
    {
      id: "komodor_troubleshooting",
      name: "Komodor clusters, issues and events",
      description: "Clusters, issues, Kubernetes events, jobs, health risks and Klaudia root-cause analyses.",
      tags: ["komodor", "kubernetes", "issues", "events", "health", "rca", "jobs"],
      examples: [
        "What issues does prod-eu have?",
        "Warnings in prod-eu/shop",
        "Why is checkout crash-looping?",
      ],
    },
    {
      id: "komodor_cost",
      name: "Komodor cost",
      description: "Cost allocation per cluster and namespace, and right-sizing recommendations.",
      tags: ["komodor", "cost", "right-sizing"],
      examples: ["What does prod-eu cost?", "Which services are over-provisioned?"],
    },
    {
      id: "komodor_access",
      name: "Komodor RBAC and audit",
      description:
        "RBAC roles, a user's effective permissions, the audit log; gives or removes a user's role (asks first).",
      tags: ["komodor", "rbac", "audit"],
      examples: [
        "Who restarted checkout today?",
        "What may alice@example.com do?",
        "Give bob@example.com the account-admin role until Friday",
      ],
    },
  ],
  tools: (env) => komodorTools(komodorClient(env)),
};
