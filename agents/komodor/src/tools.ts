import { type AgentTool, defineTool, type ToolCallContext } from "@switchboard/agent-runtime";
import { z } from "zod";
import type { KomodorClient } from "./client.js";

// Kubernetes names: lower-case DNS labels, as Kubernetes and Komodor write them.
const k8sName = (what: string) =>
  z
    .string()
    .regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, `a Kubernetes ${what} name (lower case, digits, - and .)`)
    .describe(`The ${what}'s name`);
const cluster = k8sName("cluster");
const namespace = k8sName("namespace");
const hours = z
  .number()
  .min(0.1)
  .max(48)
  .default(24)
  .describe("How far back to look, in hours (Komodor allows 48 at most)");

const when = (epoch: number | undefined) => (epoch ? new Date(epoch).toISOString() : "—");
const money = (value: number) => `$${value.toFixed(2)}`;

/** A cluster, and a namespace in it, as a policy names them: `prod-eu`, `prod-eu/shop`. */
function scope(args: { cluster: string; namespace?: string | undefined }): Record<string, string> {
  return {
    cluster: args.cluster,
    ...(args.namespace ? { namespace: `${args.cluster}/${args.namespace}` } : {}),
  };
}

function window(hoursBack: number) {
  const toEpoch = Date.now();
  return { fromEpoch: Math.round(toEpoch - hoursBack * 3_600_000), toEpoch };
}

export function komodorTools(komodor: KomodorClient): AgentTool[] {
  return [
    listClusters(komodor),
    searchIssues(komodor),
    searchEvents(komodor),
    listHealthRisks(komodor),
    getHealthRisk(komodor),
    costAllocation(komodor),
    rightSizing(komodor),
    searchJobs(komodor),
    getRootCause(komodor),
    listRoles(komodor),
    userPermissions(komodor),
    auditLog(komodor),
    setHealthRiskStatus(komodor),
    startRootCause(komodor),
    assignRole(komodor),
    removeRole(komodor),
  ];
}

const listClusters = (komodor: KomodorClient) =>
  defineTool({
    name: "list_clusters",
    description: "List the Kubernetes clusters Komodor watches (provider, version, region)",
    schema: z.object({}),
    run: async (_args, ctx) => {
      const { data } = await komodor.call(ctx, (api) =>
        api.get<{
          data: {
            clusters: Array<{
              clusterName: string;
              provider?: string;
              kubernetesVersion?: string;
              region?: string;
            }>;
          };
        }>("/clusters"),
      );
      if (data.clusters.length === 0) return "Komodor watches no clusters.";
      return data.clusters
        .map(
          (one) =>
            `${one.clusterName}: ${one.provider ?? "?"} ${one.kubernetesVersion ?? ""} in ${one.region ?? "?"}`,
        )
        .join("\n");
    },
  });

interface Issue {
  id: string;
  namespace: string;
  kind: string;
  name: string;
  reason: string;
  status: string;
  startTime: number;
  endTime?: number;
}

const searchIssues = (komodor: KomodorClient) =>
  defineTool({
    name: "search_issues",
    description: "Search a cluster's issues (crash loops, OOM kills, failed deploys) over the last hours",
    schema: z.object({
      cluster,
      namespace: namespace.optional(),
      open_only: z.boolean().default(false),
      hours,
    }),
    resource: scope,
    run: async ({ cluster, namespace, open_only, hours }, ctx) => {
      const { data } = await komodor.call(ctx, (api) =>
        api.post<{ data: { issues: Issue[] } }>("/clusters/issues/search", {
          scope: { cluster, ...(namespace ? { namespaces: [namespace] } : {}) },
          ...window(hours),
          ...(open_only ? { props: { statuses: ["open"] } } : {}),
        }),
      );
      if (data.issues.length === 0)
        return `No issues in ${cluster}${namespace ? `/${namespace}` : ""} in the last ${hours} h.`;
      return data.issues
        .map(
          (one) =>
            `${one.id} [${one.status}] ${one.kind} ${one.namespace}/${one.name}: ${one.reason} since ${when(one.startTime)}${one.endTime ? `, until ${when(one.endTime)}` : ""}`,
        )
        .join("\n");
    },
  });

const searchEvents = (komodor: KomodorClient) =>
  defineTool({
    name: "search_k8s_events",
    description:
      "Search a cluster's Kubernetes events over the last hours, newest first; optionally warnings only",
    schema: z.object({
      cluster,
      namespace: namespace.optional(),
      warnings_only: z.boolean().default(false),
      hours,
    }),
    resource: scope,
    run: async ({ cluster, namespace, warnings_only, hours }, ctx) => {
      const { data } = await komodor.call(ctx, (api) =>
        api.post<{
          data: {
            events: Array<{
              eventTime: number;
              namespace: string;
              kind: string;
              name: string;
              type: string;
              reason: string;
              message: string;
            }>;
          };
        }>("/clusters/k8s-events/search", {
          scope: { cluster, ...(namespace ? { namespaces: [namespace] } : {}) },
          ...window(hours),
          ...(warnings_only ? { props: { eventType: ["Warning"] } } : {}),
        }),
      );
      if (data.events.length === 0)
        return `No events in ${cluster}${namespace ? `/${namespace}` : ""} in the last ${hours} h.`;
      return data.events
        .map(
          (one) =>
            `${when(one.eventTime)} ${one.type} ${one.reason} ${one.kind} ${one.namespace}/${one.name}: ${one.message}`,
        )
        .join("\n");
    },
  });

interface Violation {
  id: string;
  checkType: string;
  checkDescription?: string;
  severity: string;
  status: string;
  clusterName: string;
  namespace?: string;
  shortResourceName?: string;
}

const formatRisk = (one: Violation) =>
  `${one.id} [${one.severity}, ${one.status}] ${one.checkType} on ${one.clusterName}${one.namespace ? `/${one.namespace}` : ""}${one.shortResourceName ? ` ${one.shortResourceName}` : ""}${one.checkDescription ? `: ${one.checkDescription}` : ""}`;

const listHealthRisks = (komodor: KomodorClient) =>
  defineTool({
    name: "list_health_risks",
    description:
      "List Komodor health risks (reliability violations): open ones by default, by cluster and severity",
    schema: z.object({
      cluster: cluster.optional(),
      severity: z.enum(["high", "medium", "low"]).optional(),
      status: z.enum(["open", "confirmed", "resolved", "ignored", "manually_resolved"]).default("open"),
      limit: z.number().int().min(1).max(100).default(50),
    }),
    resource: ({ cluster }): Record<string, string> => (cluster ? { cluster } : {}),
    run: async ({ cluster, severity, status, limit }, ctx) => {
      const { violations, hasMore } = await komodor.call(ctx, (api) =>
        api.get<{ violations: Violation[]; hasMore?: boolean }>("/health/risks", {
          pageSize: limit,
          offset: 0,
          impactGroupType: ["static", "dynamic", "realtime"],
          status,
          clusterName: cluster,
          severity,
        }),
      );
      if (violations.length === 0) return `No ${status} health risks${cluster ? ` in ${cluster}` : ""}.`;
      return `${violations.map(formatRisk).join("\n")}${hasMore ? "\n(more match; narrow by cluster or severity)" : ""}`;
    },
  });

const riskId = z.string().min(1).max(100).describe("The health risk's (violation's) id");

const getHealthRisk = (komodor: KomodorClient) =>
  defineTool({
    name: "get_health_risk",
    description: "Get one Komodor health risk: its check, severity, status and what it affects",
    schema: z.object({ risk: riskId }),
    resource: ({ risk }) => ({ risk }),
    run: async ({ risk }, ctx) => {
      const { violation } = await komodor.call(ctx, (api) =>
        api.get<{ violation: Violation }>(`/health/risks/${encodeURIComponent(risk)}`),
      );
      return formatRisk(violation);
    },
  });

const costAllocation = (komodor: KomodorClient) =>
  defineTool({
    name: "cost_allocation",
    description: "Kubernetes cost per cluster and namespace over 7, 14 or 30 days (CPU, memory, efficiency)",
    schema: z.object({
      cluster: cluster.optional(),
      time_frame: z.enum(["7d", "14d", "30d"]).default("30d"),
    }),
    resource: ({ cluster }): Record<string, string> => (cluster ? { cluster } : {}),
    run: async ({ cluster, time_frame }, ctx) => {
      const { rows } = await komodor.call(ctx, (api) =>
        api.get<{
          rows: Array<{
            clusterName: string;
            namespace: string;
            totalCost: number;
            cpuCost: number;
            memoryCost: number;
            efficiency: number;
          }>;
        }>("/cost/allocation", { timeFrame: time_frame, clusterName: cluster }),
      );
      if (rows.length === 0) return "No cost data.";
      const total = rows.reduce((sum, one) => sum + one.totalCost, 0);
      return [
        ...rows
          .sort((a, b) => b.totalCost - a.totalCost)
          .map(
            (one) =>
              `${one.clusterName}/${one.namespace}: ${money(one.totalCost)} (CPU ${money(one.cpuCost)}, memory ${money(one.memoryCost)}), efficiency ${Math.round(one.efficiency * 100)}%`,
          ),
        `Total over ${time_frame}: ${money(total)}`,
      ].join("\n");
    },
  });

const rightSizing = (komodor: KomodorClient) =>
  defineTool({
    name: "right_sizing",
    description:
      "Right-sizing recommendations per service: requested vs recommended CPU and memory, and the monthly saving",
    schema: z.object({ cluster: cluster.optional() }),
    resource: ({ cluster }): Record<string, string> => (cluster ? { cluster } : {}),
    run: async ({ cluster }, ctx) => {
      const { rows } = await komodor.call(ctx, (api) =>
        api.get<{
          rows: Array<{
            clusterName: string;
            namespace: string;
            service: string;
            serviceKind: string;
            cpuRequestCores: number;
            recommendedCpuCores: number;
            memoryRequestMiB: number;
            recommendedMemoryMiB: number;
            monthlySaving: number;
          }>;
        }>("/cost/right-sizing/service", { clusterName: cluster }),
      );
      if (rows.length === 0) return "No right-sizing recommendations.";
      return rows
        .map(
          (one) =>
            `${one.serviceKind} ${one.clusterName}/${one.namespace}/${one.service}: CPU ${one.cpuRequestCores} → ${one.recommendedCpuCores} cores, memory ${one.memoryRequestMiB} → ${one.recommendedMemoryMiB} MiB, saves ${money(one.monthlySaving)}/month`,
        )
        .join("\n");
    },
  });

const searchJobs = (komodor: KomodorClient) =>
  defineTool({
    name: "search_jobs",
    description:
      "List a cluster's Jobs and CronJobs with their last run's status; optionally failed ones only",
    schema: z.object({ cluster, namespace: namespace.optional(), failed_only: z.boolean().default(false) }),
    resource: scope,
    run: async ({ cluster, namespace, failed_only }, ctx) => {
      const { data } = await komodor.call(ctx, (api) =>
        api.post<{
          data: {
            jobs: Array<{
              name: string;
              namespace: string;
              kind: string;
              status: string;
              lastRunTime: number;
            }>;
          };
        }>("/jobs/search", {
          scope: { cluster, ...(namespace ? { namespaces: [namespace] } : {}) },
          ...(failed_only ? { props: { statuses: ["failed"] } } : {}),
        }),
      );
      if (data.jobs.length === 0)
        return `No${failed_only ? " failed" : ""} jobs in ${cluster}${namespace ? `/${namespace}` : ""}.`;
      return data.jobs
        .map(
          (one) =>
            `${one.kind} ${one.namespace}/${one.name}: ${one.status}, last run ${when(one.lastRunTime)}`,
        )
        .join("\n");
    },
  });

interface RcaResult {
  sessionId: string;
  isComplete: boolean;
  problemShort?: string;
  recommendation?: string;
}

const getRootCause = (komodor: KomodorClient) =>
  defineTool({
    name: "get_root_cause",
    description: "Read a Klaudia root-cause analysis session's result (started with start_root_cause)",
    schema: z.object({ session: z.string().min(1).describe("The session id start_root_cause gave") }),
    resource: ({ session }) => ({ rca_session: session }),
    run: async ({ session }, ctx) => {
      const result = await komodor.call(ctx, (api) =>
        api.get<RcaResult>(`/klaudia/rca/sessions/${encodeURIComponent(session)}`),
      );
      if (!result.isComplete)
        return `Klaudia is still analysing (session ${session}); ask again in a minute.`;
      return `Problem: ${result.problemShort ?? "none found"}\nRecommendation: ${result.recommendation ?? "none"}`;
    },
  });

const listRoles = (komodor: KomodorClient) =>
  defineTool({
    name: "list_rbac_roles",
    description: "List Komodor's RBAC roles",
    schema: z.object({}),
    run: async (_args, ctx) => {
      const roles = await komodor.call(ctx, (api) =>
        api.get<Array<{ id: string; name: string; isDefault?: boolean }>>("/rbac/roles"),
      );
      return roles.length
        ? roles.map((one) => `${one.name} (id ${one.id})${one.isDefault ? ", the default" : ""}`).join("\n")
        : "No roles.";
    },
  });

const userPermissions = (komodor: KomodorClient) =>
  defineTool({
    name: "user_permissions",
    description: "What a Komodor user may do: their effective permissions per cluster and namespace",
    schema: z.object({ email: z.email().transform((value) => value.toLowerCase()) }),
    resource: ({ email }) => ({ user: email }),
    run: async ({ email }, ctx) => {
      const rows = await komodor.call(ctx, (api) =>
        api.get<Array<{ action: string; cluster: string; namespaces: string[] }>>(
          "/users/effective-permissions",
          { email },
        ),
      );
      if (rows.length === 0) return `${email} has no permissions.`;
      return rows
        .map((one) => `${one.action} on ${one.cluster} (namespaces ${one.namespaces.join(", ")})`)
        .join("\n");
    },
  });

const auditLog = (komodor: KomodorClient) =>
  defineTool({
    name: "audit_log",
    description: "Komodor's audit log over the last hours: who did what to which resource, newest first",
    schema: z.object({
      user: z.email().optional().describe("Only this user's actions"),
      hours: z
        .number()
        .min(1)
        .max(24 * 90)
        .default(24),
    }),
    run: async ({ user, hours }, ctx) => {
      const toEpoch = Date.now();
      const { data } = await komodor.call(ctx, (api) =>
        api.get<{
          data: Array<{
            eventTime: number;
            userEmail: string;
            action: string;
            category: string;
            resourceName: string;
            status: string;
          }>;
        }>("/audit-log", { fromEpoch: toEpoch - hours * 3_600_000, toEpoch, userEmail: user }),
      );
      if (data.length === 0) return `Nothing in the audit log for the last ${hours} h.`;
      return data
        .map(
          (one) =>
            `${when(one.eventTime)} ${one.userEmail} ${one.action} ${one.category} ${one.resourceName} (${one.status})`,
        )
        .join("\n");
    },
  });

const setHealthRiskStatus = (komodor: KomodorClient) =>
  defineTool({
    name: "set_health_risk_status",
    description: "Change a health risk's status: confirm it, ignore it, mark it resolved, or open it again",
    schema: z.object({ risk: riskId, status: z.enum(["open", "confirmed", "ignored", "manually_resolved"]) }),
    confirm: ({ risk, status }) => `Set Komodor health risk ${risk} to ${status.replace("_", " ")}.`,
    resource: ({ risk }) => ({ risk }),
    run: async ({ risk, status }, ctx) => {
      const { violation } = await komodor.call(ctx, (api) =>
        api.put<{ violation: Violation }>(`/health/risks/${encodeURIComponent(risk)}`, { status }),
      );
      return `Updated: ${formatRisk(violation)}`;
    },
  });

const startRootCause = (komodor: KomodorClient) =>
  defineTool({
    name: "start_root_cause",
    description:
      "Start a Klaudia (Komodor's AI) root-cause analysis of a workload; read it with get_root_cause",
    schema: z.object({
      cluster,
      namespace,
      kind: z.enum(["Deployment", "StatefulSet", "DaemonSet", "Job", "CronJob", "Pod", "Rollout"]),
      name: k8sName("workload"),
    }),
    confirm: ({ cluster, namespace, kind, name }) =>
      `Start a Klaudia root-cause analysis of ${kind} ${namespace}/${name} in ${cluster}.`,
    resource: scope,
    run: async ({ cluster, namespace, kind, name }, ctx) => {
      const { sessionId } = await komodor.call(ctx, (api) =>
        api.post<{ sessionId: string }>("/klaudia/rca/sessions", {
          clusterName: cluster,
          namespace,
          kind,
          name,
        }),
      );
      const result = await komodor.call(ctx, (api) =>
        api.get<RcaResult>(`/klaudia/rca/sessions/${encodeURIComponent(sessionId)}`),
      );
      if (!result.isComplete)
        return `Started Klaudia's analysis (session ${sessionId}); get_root_cause reads it when done.`;
      return `Klaudia's analysis (session ${sessionId}):\nProblem: ${result.problemShort ?? "none found"}\nRecommendation: ${result.recommendation ?? "none"}`;
    },
  });

// RBAC changes: a user named by email, a role by name (or id), as people name them; the API takes ids.
const userEmail = z
  .email()
  .transform((value) => value.toLowerCase())
  .describe("The Komodor user's email");
const roleName = z
  .string()
  .trim()
  .min(1)
  .describe("The RBAC role's name (or id), as list_rbac_roles shows it");

/** The user's and the role's ids, or an error naming which is unknown (and the roles there are). */
async function userAndRole(komodor: KomodorClient, ctx: ToolCallContext, email: string, role: string) {
  const [user, roles] = await Promise.all([
    komodor.call(ctx, (api) => api.get<{ id: string; email: string }>(`/users/${encodeURIComponent(email)}`)),
    komodor.call(ctx, (api) => api.get<Array<{ id: string; name: string }>>("/rbac/roles")),
  ]);
  const found = roles.find((one) => one.name === role || one.id === role);
  if (!found)
    throw new Error(
      `Komodor has no RBAC role "${role}"; its roles are ${roles.map((one) => one.name).join(", ")}.`,
    );
  return { userId: user.id, roleId: found.id, roleName: found.name };
}

const rbacResource = ({ email, role }: { email: string; role: string }) => ({ user: email, rbac_role: role });

const assignRole = (komodor: KomodorClient) =>
  defineTool({
    name: "assign_rbac_role",
    description:
      "Give a Komodor user an RBAC role (what they may see and do in Komodor), optionally until a date",
    schema: z.object({
      email: userEmail,
      role: roleName,
      until: z.iso
        .datetime({ offset: true })
        .optional()
        .describe("When the role lapses (RFC 3339, e.g. 2026-12-31T23:59:59Z); unset, it stays"),
    }),
    confirm: ({ email, role, until }) =>
      `Give Komodor user ${email} the RBAC role ${role}${until ? ` until ${until}` : ""}.`,
    resource: rbacResource,
    run: async ({ email, role, until }, ctx) => {
      const { userId, roleId, roleName } = await userAndRole(komodor, ctx, email, role);
      await komodor.call(ctx, (api) =>
        api.post("/rbac/users/roles", { userId, roleId, ...(until ? { expiration: until } : {}) }),
      );
      return `${email} now has the Komodor role ${roleName}${until ? ` until ${until}` : ""}.`;
    },
  });

const removeRole = (komodor: KomodorClient) =>
  defineTool({
    name: "remove_rbac_role",
    description: "Take an RBAC role away from a Komodor user",
    schema: z.object({ email: userEmail, role: roleName }),
    confirm: ({ email, role }) => `Remove the RBAC role ${role} from Komodor user ${email}.`,
    resource: rbacResource,
    run: async ({ email, role }, ctx) => {
      const { userId, roleId, roleName } = await userAndRole(komodor, ctx, email, role);
      await komodor.call(ctx, (api) => api.delete("/rbac/users/roles", { userId, roleId }));
      return `${email} no longer has the Komodor role ${roleName}.`;
    },
  });
