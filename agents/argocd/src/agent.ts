import { type AgentDefinition, warnIfTlsUnverified } from "@switchboard/agent-runtime";
import { argoCdClient } from "./client.js";
import { ARGOCD_PROMPT } from "./prompt.js";
import { argoCdTools } from "./tools.js";

export const argocdAgent: AgentDefinition = {
  name: "argocd",
  title: "Argo CD",
  description:
    "Lists and inspects Argo CD applications, their sync and health status and history; syncs and rolls back.",
  systemPrompt: ARGOCD_PROMPT,
  skills: [
    {
      id: "argocd_applications",
      name: "Argo CD applications",
      description:
        "List and inspect applications: sync and health status, unhealthy resources, deployment history.",
      tags: ["argocd", "gitops", "applications", "deployments", "kubernetes"],
      examples: [
        "Which Argo CD apps are out of sync?",
        "Why is checkout-api degraded?",
        "History of checkout-api",
      ],
    },
    {
      id: "argocd_changes",
      name: "Argo CD sync and rollback",
      description:
        "Sync an application or roll it back to an earlier deployment (asks before changing anything).",
      tags: ["argocd", "sync", "rollback"],
      examples: ["Sync guestbook", "Roll checkout-api back to deployment 5"],
    },
  ],
  tools: (env) => argoCdTools(argoCdClient(env)),
  extend: ({ env, logger }) => warnIfTlsUnverified(env, "ARGOCD_VERIFY_SSL", "Argo CD", logger),
  linkedTokens: {
    vendor: "argocd",
    title: "Argo CD",
    hint: "a token of your Argo CD account (argocd account generate-token)",
  },
};
