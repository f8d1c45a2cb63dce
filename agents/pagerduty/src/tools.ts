import { type AgentTool, defineTool, type ToolCallContext } from "@switchboard/agent-runtime";
import { z } from "zod";
import type { PagerDutyConnection } from "./client.js";
import {
  formatIncident,
  formatIncidentLine,
  formatOnCall,
  type PagerDutyIncident,
  type PagerDutyOnCall,
  type PagerDutyService,
} from "./format.js";

const STATUSES = ["triggered", "acknowledged", "resolved"] as const;
// PagerDuty ids are uppercase letters and digits, e.g. Q1ABCDEF2GHIJK or PSVC001; the number works too.
const incidentId = z
  .string()
  .regex(/^[A-Z0-9]+$/, "a PagerDuty incident id like Q1ABCDEF2GHIJK, or its number like 1234")
  .describe("The incident's id or number");

/**
 * A service as a policy names it: its id as PagerDuty writes ids (upper case, e.g. PSVC001), else its
 * name in lower case, since names are matched ignoring case (`resolveService`). A call that names the
 * service by name is not in a policy's service named by id, and the other way round.
 */
export function serviceName(given: string): string {
  const service = given.trim();
  return /^P[A-Z0-9]{5,}$/.test(service) ? service : service.toLowerCase();
}

/** A list answer: the items under their kind's name, and whether more pages follow. */
type Page<K extends string, T> = Record<K, T[]> & { more?: boolean };

export function pagerDutyTools(pagerduty: PagerDutyConnection): AgentTool[] {
  return [
    listIncidents(pagerduty),
    getIncident(pagerduty),
    whoIsOnCall(pagerduty),
    listServices(pagerduty),
    acknowledgeIncident(pagerduty),
    resolveIncident(pagerduty),
    createIncident(pagerduty),
  ];
}

const listIncidents = (pagerduty: PagerDutyConnection) =>
  defineTool({
    name: "list_incidents",
    description:
      "List PagerDuty incidents, newest first; by default the open ones (triggered or acknowledged)",
    schema: z.object({
      statuses: z.array(z.enum(STATUSES)).min(1).default(["triggered", "acknowledged"]),
      service: z.string().optional().describe("A service's name or id"),
      urgency: z.enum(["high", "low"]).optional(),
      limit: z.number().int().min(1).max(100).default(25),
    }),
    resource: ({ service }): Record<string, string> => (service ? { service: serviceName(service) } : {}),
    run: async ({ statuses, service, urgency, limit }, ctx) => {
      const serviceIds = service ? [(await resolveService(pagerduty, ctx, service)).id] : [];
      const page = await pagerduty.call(ctx, (pd) =>
        pd.request<Page<"incidents", PagerDutyIncident>>("/incidents", {
          query: {
            "statuses[]": statuses,
            ...(serviceIds.length ? { "service_ids[]": serviceIds } : {}),
            ...(urgency ? { "urgencies[]": [urgency] } : {}),
            sort_by: "created_at:desc",
            limit: String(limit),
          },
        }),
      );
      if (page.incidents.length === 0)
        return `No ${statuses.join(" or ")} incidents${service ? ` on ${service}` : ""}.`;
      const more = page.more ? "\n(more incidents match; narrow by service or status to see them)" : "";
      return `${page.incidents.map(formatIncidentLine).join("\n")}${more}`;
    },
  });

const getIncident = (pagerduty: PagerDutyConnection) =>
  defineTool({
    name: "get_incident",
    description: "Get one PagerDuty incident: status, urgency, service, assignees, acknowledgements",
    schema: z.object({ id: incidentId }),
    resource: ({ id }) => ({ incident: id }),
    run: async ({ id }, ctx) => {
      const { incident } = await pagerduty.call(ctx, (pd) =>
        pd.request<{ incident: PagerDutyIncident }>(`/incidents/${id}`, { query: { "include[]": ["body"] } }),
      );
      return formatIncident(incident);
    },
  });

const whoIsOnCall = (pagerduty: PagerDutyConnection) =>
  defineTool({
    name: "who_is_on_call",
    description:
      "Who is on call now, per escalation policy and level; optionally only where a policy, schedule or person's name contains a text",
    schema: z.object({ filter: z.string().optional().describe("e.g. platform, data primary") }),
    run: async ({ filter }, ctx) => {
      const { oncalls } = await pagerduty.call(ctx, (pd) =>
        pd.request<Page<"oncalls", PagerDutyOnCall>>("/oncalls", {
          query: { earliest: "true", limit: "100" },
        }),
      );
      const wanted = filter?.toLowerCase();
      // Filter on the names PagerDuty returns: users ask by team or schedule name, not by id.
      const matching = wanted
        ? oncalls.filter((one) =>
            [one.escalation_policy.summary, one.schedule?.summary, one.user.summary].some((name) =>
              name?.toLowerCase().includes(wanted),
            ),
          )
        : oncalls;
      if (matching.length === 0) return filter ? `Nobody on call matches "${filter}".` : "Nobody is on call.";
      return matching
        .sort((a, b) => a.escalation_level - b.escalation_level)
        .map(formatOnCall)
        .join("\n");
    },
  });

const listServices = (pagerduty: PagerDutyConnection) =>
  defineTool({
    name: "list_services",
    description: "List PagerDuty services (id, name, status), optionally those whose name contains a text",
    schema: z.object({ query: z.string().optional() }),
    run: async ({ query }, ctx) => {
      const { services } = await pagerduty.call(ctx, (pd) =>
        pd.request<Page<"services", PagerDutyService>>("/services", {
          query: { ...(query ? { query } : {}), limit: "100" },
        }),
      );
      if (services.length === 0) return query ? `No services match "${query}".` : "No services are visible.";
      return services.map((one) => `${one.id}: ${one.name} [${one.status}]`).join("\n");
    },
  });

const acknowledgeIncident = (pagerduty: PagerDutyConnection) =>
  defineTool({
    name: "acknowledge_incident",
    description: "Acknowledge a PagerDuty incident (stops its escalation)",
    schema: z.object({ id: incidentId }),
    confirm: ({ id }) => `Acknowledge PagerDuty incident ${id}.`,
    resource: ({ id }) => ({ incident: id }),
    run: async ({ id }, ctx) => {
      const incident = await setStatus(pagerduty, ctx, id, "acknowledged");
      return `Acknowledged ${formatIncidentLine(incident)}`;
    },
  });

const resolveIncident = (pagerduty: PagerDutyConnection) =>
  defineTool({
    name: "resolve_incident",
    description: "Resolve a PagerDuty incident",
    schema: z.object({ id: incidentId, resolution: z.string().optional().describe("What fixed it") }),
    confirm: ({ id, resolution }) =>
      `Resolve PagerDuty incident ${id}${resolution ? ` ("${resolution}")` : ""}.`,
    resource: ({ id }) => ({ incident: id }),
    run: async ({ id, resolution }, ctx) => {
      const incident = await setStatus(pagerduty, ctx, id, "resolved", resolution);
      return `Resolved ${formatIncidentLine(incident)}`;
    },
  });

const createIncident = (pagerduty: PagerDutyConnection) =>
  defineTool({
    name: "create_incident",
    description: "Create (trigger) a PagerDuty incident on a service; it pages whoever is on call",
    schema: z.object({
      service: z.string().min(1).describe("The service's name or id"),
      title: z.string().min(1),
      urgency: z.enum(["high", "low"]).default("high"),
      details: z.string().optional(),
    }),
    confirm: ({ service, title, urgency }) =>
      `Create a ${urgency}-urgency PagerDuty incident on ${service}: "${title}". It pages whoever is on call.`,
    resource: ({ service }) => ({ service: serviceName(service) }),
    run: async ({ service, title, urgency, details }, ctx) => {
      const target = await resolveService(pagerduty, ctx, service);
      const { incident } = await pagerduty.call(ctx, (pd) =>
        pd.request<{ incident: PagerDutyIncident }>("/incidents", {
          method: "POST",
          asUser: true,
          body: {
            incident: {
              type: "incident",
              title,
              service: { id: target.id, type: "service_reference" },
              urgency,
              ...(details ? { body: { type: "incident_body", details } } : {}),
            },
          },
        }),
      );
      return `Created ${formatIncidentLine(incident)}`;
    },
  });

/** A service id as given, or the one service whose name contains the text. */
async function resolveService(
  pagerduty: PagerDutyConnection,
  ctx: ToolCallContext,
  service: string,
): Promise<PagerDutyService> {
  const { services } = await pagerduty.call(ctx, (pd) =>
    pd.request<Page<"services", PagerDutyService>>("/services", { query: { query: service, limit: "25" } }),
  );
  const exact = services.find(
    (one) => one.id === service || one.name.toLowerCase() === service.toLowerCase(),
  );
  if (exact) return exact;
  if (services.length === 1 && services[0]) return services[0];
  const names = services.map((one) => `${one.name} (${one.id})`).join(", ");
  throw new Error(
    services.length === 0
      ? `No PagerDuty service matches "${service}"; list_services shows them.`
      : `"${service}" matches several services: ${names}. Name one exactly.`,
  );
}

async function setStatus(
  pagerduty: PagerDutyConnection,
  ctx: ToolCallContext,
  id: string,
  status: "acknowledged" | "resolved",
  resolution?: string,
): Promise<PagerDutyIncident> {
  const { incident } = await pagerduty.call(ctx, (pd) =>
    pd.request<{ incident: PagerDutyIncident }>(`/incidents/${id}`, {
      method: "PUT",
      asUser: true,
      body: { incident: { type: "incident_reference", status, ...(resolution ? { resolution } : {}) } },
    }),
  );
  return incident;
}
