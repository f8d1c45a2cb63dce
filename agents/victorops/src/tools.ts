import { randomUUID } from "node:crypto";
import { type AgentTool, defineTool, type ToolCallContext } from "@switchboard/agent-runtime";
import { z } from "zod";
import { actingUser, callOrg, type VictorOpsClient } from "./client.js";
import { type ActiveIncident, formatIncident, formatIncidentLine, PHASE_NAMES } from "./format.js";

// Splunk On-Call numbers incidents in sequence; the API takes the number as a string.
const incidentNumber = z
  .string()
  .regex(/^\d+$/, "an incident number like 411")
  .describe("The incident's number, e.g. 411");
// Team, policy and user slugs are lower case in Splunk On-Call (team-abc123, pol-xyz, alice).
const slug = (what: string) =>
  z
    .string()
    .min(1)
    .transform((value) => value.trim().toLowerCase())
    .describe(what);

// VICTOROPS_ORGS sets up several organisations; a call names one of them (with just one, it is that one).
const orgField = z
  .string()
  .trim()
  .min(1)
  .optional()
  .describe("The Splunk On-Call organisation (its slug in VICTOROPS_ORGS); only when several are set up");
/** The organisation a call acts in, for the policy: named when the call names it. */
const inOrgScope = (org: string | undefined): Record<string, string> => (org ? { org } : {});
const inOrg = (org: string | undefined) => (org ? ` in ${org}` : "");

const PHASES = ["triggered", "acknowledged", "resolved"] as const;
const PHASE_OF: Record<(typeof PHASES)[number], string> = {
  triggered: "UNACKED",
  acknowledged: "ACKED",
  resolved: "RESOLVED",
};

export function victorOpsTools(victorops: VictorOpsClient): AgentTool[] {
  return [
    listOrganisations(victorops),
    listIncidents(victorops),
    getIncident(victorops),
    whoIsOnCall(victorops),
    listTeams(victorops),
    listServices(victorops),
    createIncident(victorops),
    acknowledgeIncident(victorops),
    resolveIncident(victorops),
    addNote(victorops),
  ];
}

async function incidents(
  victorops: VictorOpsClient,
  ctx: ToolCallContext,
  org: string | undefined,
): Promise<ActiveIncident[]> {
  const { incidents = [] } = await callOrg(victorops, ctx, org, (vo) => vo.listIncidents());
  return incidents;
}

const listOrganisations = (victorops: VictorOpsClient) =>
  defineTool({
    name: "list_organisations",
    description: "List the Splunk On-Call organisations set up here (VICTOROPS_ORGS), by slug",
    schema: z.object({}),
    run: async (_args, ctx) => (await victorops.call(ctx, async (orgs) => orgs.slugs)).join("\n"),
  });

const onTeam = (incident: ActiveIncident, team: string) =>
  (incident.pagedTeams ?? []).includes(team) ||
  (incident.pagedPolicies ?? []).some(
    (one) => one.team?.slug === team || one.team?.name.toLowerCase() === team,
  );

const listIncidents = (victorops: VictorOpsClient) =>
  defineTool({
    name: "list_incidents",
    description:
      "List Splunk On-Call (VictorOps) incidents, newest first; by default the open ones (triggered or acknowledged), optionally one team's",
    schema: z.object({
      phases: z.array(z.enum(PHASES)).min(1).default(["triggered", "acknowledged"]),
      team: slug("A team's slug or name, e.g. team-platform").optional(),
      org: orgField,
    }),
    resource: ({ team, org }): Record<string, string> => ({ ...inOrgScope(org), ...(team ? { team } : {}) }),
    run: async ({ phases, team, org }, ctx) => {
      const wanted = new Set(phases.map((phase) => PHASE_OF[phase]));
      const matching = (await incidents(victorops, ctx, org))
        .filter((one) => wanted.has(one.currentPhase))
        .filter((one) => !team || onTeam(one, team))
        .sort((a, b) => Number(b.incidentNumber) - Number(a.incidentNumber));
      if (matching.length === 0) return `No ${phases.join(" or ")} incidents${team ? ` for ${team}` : ""}.`;
      return matching.map(formatIncidentLine).join("\n");
    },
  });

const getIncident = (victorops: VictorOpsClient) =>
  defineTool({
    name: "get_incident",
    description: "Get one Splunk On-Call incident: phase, routing key, who was paged, its timeline",
    schema: z.object({ incident: incidentNumber, org: orgField }),
    resource: ({ incident, org }) => ({ ...inOrgScope(org), incident }),
    run: async ({ incident, org }, ctx) => {
      const found = (await incidents(victorops, ctx, org)).find((one) => one.incidentNumber === incident);
      // The incident list holds open and recently resolved incidents; older ones are in the reporting API.
      return found
        ? formatIncident(found)
        : `Incident #${incident} is not open or recently resolved in Splunk On-Call.`;
    },
  });

const whoIsOnCall = (victorops: VictorOpsClient) =>
  defineTool({
    name: "who_is_on_call",
    description:
      "Who is on call now in Splunk On-Call, per team and escalation policy; optionally one team's",
    schema: z.object({
      team: slug("A team's slug or name, e.g. team-platform or platform").optional(),
      org: orgField,
    }),
    resource: ({ team, org }): Record<string, string> => ({ ...inOrgScope(org), ...(team ? { team } : {}) }),
    run: async ({ team, org }, ctx) => {
      const { teamsOnCall = [] } = await callOrg(victorops, ctx, org, (vo) => vo.currentOnCall());
      const lines = teamsOnCall
        .filter((one) => !team || one.team.slug === team || one.team.name.toLowerCase().includes(team))
        .flatMap((one) =>
          (one.onCallNow ?? []).map((now) => {
            const users = (now.users ?? []).map((user) => user.onCallUser?.username).filter(Boolean);
            return `${one.team.name} (${one.team.slug}) — ${now.escalationPolicy.name}: ${users.join(", ") || "nobody"}`;
          }),
        );
      if (lines.length === 0) return team ? `Nobody on call matches "${team}".` : "Nobody is on call.";
      return lines.join("\n");
    },
  });

const listTeams = (victorops: VictorOpsClient) =>
  defineTool({
    name: "list_teams",
    description: "List Splunk On-Call teams (name, slug, member count)",
    schema: z.object({ org: orgField }),
    resource: ({ org }) => inOrgScope(org),
    run: async ({ org }, ctx) => {
      const teams = await callOrg(victorops, ctx, org, (vo) => vo.listTeams());
      if (teams.length === 0) return "No teams are visible.";
      return teams
        .map((team) => `${team.name} (${team.slug}), ${team.memberCount ?? "?"} members`)
        .join("\n");
    },
  });

const listServices = (victorops: VictorOpsClient) =>
  defineTool({
    name: "list_services",
    description:
      "List Splunk On-Call services: the routing keys alerts arrive on and the escalation policies they page",
    schema: z.object({ org: orgField }),
    resource: ({ org }) => inOrgScope(org),
    run: async ({ org }, ctx) => {
      const { routingKeys = [] } = await callOrg(victorops, ctx, org, (vo) => vo.listRoutingKeys());
      if (routingKeys.length === 0) return "No routing keys are set up.";
      return routingKeys
        .map((key) => {
          const targets = (key.targets ?? []).map((one) => `${one.policyName} (${one.policySlug})`);
          return `${key.routingKey}${key.isDefault ? " (default)" : ""} → ${targets.join(", ") || "no policy"}`;
        })
        .join("\n");
    },
  });

const createIncident = (victorops: VictorOpsClient) =>
  defineTool({
    name: "create_incident",
    description:
      "Create a Splunk On-Call incident that pages an escalation policy (by its slug, e.g. pol-platform-primary) or a user",
    schema: z.object({
      summary: z.string().min(1),
      details: z.string().default(""),
      policy: slug("The escalation policy's slug to page").optional(),
      user: slug("A username to page instead of a policy").optional(),
      org: orgField,
    }),
    confirm: ({ summary, policy, user, org }) =>
      `Create a Splunk On-Call incident${inOrg(org)} "${summary}", paging ${policy ? `escalation policy ${policy}` : `user ${user}`}.`,
    resource: ({ policy, user, org }): Record<string, string> => ({
      ...inOrgScope(org),
      ...(policy ? { policy } : user ? { user } : {}),
    }),
    run: async ({ summary, details, policy, user, org }, ctx) => {
      if (!policy && !user) throw new Error("Name the escalation policy (its slug) or the user to page.");
      const created = await callOrg(victorops, ctx, org, (vo, settings) =>
        vo.createIncident({
          summary,
          details,
          userName: actingUser(settings),
          targets: policy
            ? [{ type: "EscalationPolicy", slug: policy }]
            : [{ type: "User", slug: user ?? "" }],
          isMultiResponder: false,
        }),
      );
      if (!created.incidentNumber)
        throw new Error(
          `Splunk On-Call did not create the incident: ${created.error ?? "no number came back"}`,
        );
      return `Created incident #${created.incidentNumber} "${summary}", paging ${policy ?? user}.`;
    },
  });

const transitionTool = (victorops: VictorOpsClient, action: "ack" | "resolve") => {
  const verb = action === "ack" ? "Acknowledge" : "Resolve";
  return defineTool({
    name: action === "ack" ? "acknowledge_incident" : "resolve_incident",
    description: `${verb} a Splunk On-Call incident${action === "ack" ? " (stops its paging)" : ""}`,
    schema: z.object({
      incident: incidentNumber,
      message: z.string().optional().describe("Why, for the timeline"),
      org: orgField,
    }),
    confirm: ({ incident, message, org }) =>
      `${verb} Splunk On-Call incident #${incident}${inOrg(org)}${message ? ` ("${message}")` : ""}.`,
    resource: ({ incident, org }) => ({ ...inOrgScope(org), incident }),
    run: async ({ incident, message, org }, ctx) => {
      const { results = [] } = await callOrg(victorops, ctx, org, (vo, settings) =>
        vo.transition(action, {
          userName: actingUser(settings),
          incidentNames: [incident],
          ...(message ? { message } : {}),
        }),
      );
      const result = results.find((one) => one.incidentNumber === incident);
      if (!result?.cmdAccepted)
        throw new Error(
          `Splunk On-Call did not ${verb.toLowerCase()} #${incident}: ${result?.message ?? "no answer"}`,
        );
      const phase = PHASE_NAMES[action === "ack" ? "ACKED" : "RESOLVED"];
      return `Incident #${incident} is ${phase}.`;
    },
  });
};

const acknowledgeIncident = (victorops: VictorOpsClient) => transitionTool(victorops, "ack");
const resolveIncident = (victorops: VictorOpsClient) => transitionTool(victorops, "resolve");

const addNote = (victorops: VictorOpsClient) =>
  defineTool({
    name: "add_note",
    description: "Add a note to a Splunk On-Call incident's timeline",
    schema: z.object({ incident: incidentNumber, text: z.string().min(1), org: orgField }),
    confirm: ({ incident, text, org }) =>
      `Add a note to Splunk On-Call incident #${incident}${inOrg(org)}: "${text}".`,
    resource: ({ incident, org }) => ({ ...inOrgScope(org), incident }),
    run: async ({ incident, text, org }, ctx) => {
      await callOrg(victorops, ctx, org, (vo, settings) =>
        vo.addNote(incident, {
          // A note's name is its key on the incident; the text goes in its value.
          name: `switchboard-${randomUUID()}`,
          display_name: `Note by ${actingUser(settings)}`,
          json_value: { text, author: actingUser(settings) },
        }),
      );
      return `Added the note to incident #${incident}.`;
    },
  });
