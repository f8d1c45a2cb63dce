import { type AgentTool, defineTool } from "@switchboard/agent-runtime";
import { z } from "zod";
import type { ArgoCdClient } from "./client.js";
import { formatApplication, formatApplicationLine, formatHistory } from "./format.js";

// Application names are Kubernetes resource names (lower case already): a policy names them as given.
const name = z
  .string()
  .regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, "an Argo CD application name like checkout-api")
  .describe("The application's name");

export function argoCdTools(argocd: ArgoCdClient): AgentTool[] {
  return [
    listApplications(argocd),
    getApplication(argocd),
    getApplicationHistory(argocd),
    syncApplication(argocd),
    rollbackApplication(argocd),
  ];
}

const listApplications = (argocd: ArgoCdClient) =>
  defineTool({
    name: "list_applications",
    description:
      "List Argo CD applications with their sync and health status, optionally by project or status",
    schema: z.object({
      project: z.string().optional(),
      sync_status: z.enum(["Synced", "OutOfSync", "Unknown"]).optional(),
      health_status: z
        .enum(["Healthy", "Progressing", "Degraded", "Suspended", "Missing", "Unknown"])
        .optional(),
    }),
    // Argo CD project names are Kubernetes names too.
    resource: ({ project }): Record<string, string> => (project ? { project } : {}),
    run: async ({ project, sync_status, health_status }, ctx) => {
      const { items } = await argocd.call(ctx, (api) => api.listApplications(project));
      const matching = (items ?? []).filter(
        (app) =>
          (!sync_status || app.status?.sync?.status === sync_status) &&
          (!health_status || app.status?.health?.status === health_status),
      );
      if (matching.length === 0) return "No applications match.";
      return matching.map(formatApplicationLine).join("\n");
    },
  });

const getApplication = (argocd: ArgoCdClient) =>
  defineTool({
    name: "get_application",
    description:
      "Inspect one Argo CD application: sync and health status, last operation, and its resources that are out of sync or unhealthy",
    schema: z.object({ name }),
    resource: ({ name: app }) => ({ application: app }),
    run: async ({ name: app }, ctx) =>
      formatApplication(await argocd.call(ctx, (api) => api.getApplication(app))),
  });

const getApplicationHistory = (argocd: ArgoCdClient) =>
  defineTool({
    name: "get_application_history",
    description: "An Argo CD application's deployment history (ids to roll back to), newest first",
    schema: z.object({ name }),
    resource: ({ name: app }) => ({ application: app }),
    run: async ({ name: app }, ctx) =>
      formatHistory(await argocd.call(ctx, (api) => api.getApplication(app))),
  });

const syncApplication = (argocd: ArgoCdClient) =>
  defineTool({
    name: "sync_application",
    description: "Sync an Argo CD application to its target revision (or a given one)",
    schema: z.object({
      name,
      revision: z.string().optional().describe("A git revision; default the application's target revision"),
      prune: z.boolean().default(false).describe("Delete resources no longer in git"),
    }),
    confirm: ({ name: app, revision, prune }) =>
      `Sync Argo CD application ${app} to ${revision ?? "its target revision"}${prune ? ", pruning resources no longer in git" : ""}.`,
    resource: ({ name: app }) => ({ application: app }),
    run: async ({ name: app, revision, prune }, ctx) => {
      const result = await argocd.call(ctx, (api) =>
        api.sync(app, { prune, ...(revision ? { revision } : {}) }),
      );
      return `Sync of ${app} started (revision ${revision ?? result.spec.source?.targetRevision ?? "HEAD"}${prune ? ", pruning" : ""}); now ${formatApplicationLine(result)}`;
    },
  });

const rollbackApplication = (argocd: ArgoCdClient) =>
  defineTool({
    name: "rollback_application",
    description:
      "Roll an Argo CD application back to an earlier deployment (an id from get_application_history); refused while auto-sync is on",
    schema: z.object({
      name,
      history_id: z.number().int().min(1),
      prune: z.boolean().default(false),
    }),
    confirm: ({ name: app, history_id }) =>
      `Roll Argo CD application ${app} back to deployment id ${history_id}.`,
    resource: ({ name: app }) => ({ application: app }),
    run: async ({ name: app, history_id, prune }, ctx) => {
      const result = await argocd.call(ctx, (api) => api.rollback(app, { id: history_id, prune }));
      const entry = result.status?.history?.find((one) => one.id === history_id);
      return `Rollback of ${app} to history id ${history_id}${entry ? ` (${entry.revision.slice(0, 12)})` : ""} started; now ${formatApplicationLine(result)}`;
    },
  });
