import { type Handler, isRecord, VendorHttpError } from "../vendor-server.js";
import type { Incident, VictorOpsState } from "./state.js";

const PHASE_AFTER = { ack: "ACKED", resolve: "RESOLVED" } as const;

/** A string field of a JSON body, or the API's 400 naming it. */
function text(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (typeof value !== "string" || value.trim() === "") throw new VendorHttpError(400, `${name} is required`);
  return value;
}

function knownUser(state: VictorOpsState, userName: string): string {
  if (!state.users.has(userName)) throw new VendorHttpError(404, `User not found: ${userName}`);
  return userName;
}

function findIncident(state: VictorOpsState, number: string): Incident {
  const incident = state.incidents.find((one) => one.incidentNumber === number);
  if (!incident) throw new VendorHttpError(404, `Incident ${number} not found`);
  return incident;
}

/** The public API v1 routes the agent uses, as Splunk On-Call's API reference describes them. */
export function victorOpsRoutes(state: VictorOpsState): Array<["GET" | "POST" | "PATCH", string, Handler]> {
  const teamOf = (slug: string) => state.teams.find((team) => team.slug === slug);
  const policyOf = (slug: string) => state.policies.find((policy) => policy.slug === slug);

  const create: Handler = ({ body }) => {
    const input = isRecord(body) ? body : {};
    const summary = text(input, "summary");
    const userName = knownUser(state, text(input, "userName"));
    const targets = Array.isArray(input.targets) ? input.targets.filter(isRecord) : [];
    if (targets.length === 0)
      throw new VendorHttpError(400, "targets must name at least one user or escalation policy");
    const policies = [];
    for (const target of targets) {
      const slug = String(target.slug ?? "");
      if (target.type === "EscalationPolicy") {
        const policy = policyOf(slug);
        if (!policy) throw new VendorHttpError(400, `Escalation policy not found: ${slug}`);
        const team = teamOf(policy.team);
        policies.push({
          policy: { name: policy.name, slug },
          ...(team ? { team: { name: team.name, slug: team.slug } } : {}),
        });
      } else if (target.type === "User") knownUser(state, slug);
      else throw new VendorHttpError(400, `Unknown target type: ${String(target.type)}`);
    }
    const incidentNumber = String(Math.max(...state.incidents.map((one) => Number(one.incidentNumber))) + 1);
    const now = new Date().toISOString();
    state.incidents.push({
      incidentNumber,
      startTime: now,
      currentPhase: "UNACKED",
      entityState: "CRITICAL",
      entityType: "SERVICE",
      entityId: `manual/${incidentNumber}`,
      entityDisplayName: summary,
      routingKey: "manual",
      alertCount: 1,
      lastAlertTime: now,
      lastAlertId: `alert-${incidentNumber}`,
      pagedUsers: targets.filter((one) => one.type === "User").map((one) => String(one.slug)),
      pagedTeams: policies.flatMap((one) => (one.team ? [one.team.slug] : [])),
      pagedPolicies: policies,
      transitions: [
        { name: "UNACKED", at: now, by: userName, manually: true, message: String(input.details ?? "") },
      ],
    });
    state.changes.push({
      action: "create",
      incidentNumber,
      userName,
      targets: targets.map((one) => ({ type: String(one.type), slug: String(one.slug) })),
    });
    return { status: 200, body: { incidentNumber } };
  };

  /** Ack or resolve: each named incident gets a result; closed ones are refused one by one, as VictorOps does. */
  const transition =
    (action: "ack" | "resolve"): Handler =>
    ({ body }) => {
      const input = isRecord(body) ? body : {};
      const userName = knownUser(state, text(input, "userName"));
      const names = Array.isArray(input.incidentNames) ? input.incidentNames.map(String) : [];
      if (names.length === 0) throw new VendorHttpError(400, "incidentNames is required");
      const message = typeof input.message === "string" ? input.message : undefined;
      const results = names.map((incidentNumber) => {
        const incident = state.incidents.find((one) => one.incidentNumber === incidentNumber);
        if (!incident) return { incidentNumber, cmdAccepted: false, message: "Incident not found" };
        const done =
          incident.currentPhase === "RESOLVED" || (action === "ack" && incident.currentPhase === "ACKED");
        if (done)
          return {
            incidentNumber,
            entityId: incident.entityId,
            cmdAccepted: false,
            message: `Incident is already ${incident.currentPhase.toLowerCase()}`,
          };
        incident.currentPhase = PHASE_AFTER[action];
        if (action === "resolve") incident.entityState = "OK";
        incident.transitions.push({
          name: PHASE_AFTER[action],
          at: new Date().toISOString(),
          by: userName,
          manually: true,
          ...(message ? { message } : {}),
        });
        state.changes.push({ action, incidentNumber, userName, ...(message ? { message } : {}) });
        return {
          incidentNumber,
          entityId: incident.entityId,
          cmdAccepted: true,
          message: "Command accepted",
        };
      });
      return { status: 200, body: { results } };
    };

  const addNote: Handler = ({ params, body }) => {
    const incident = findIncident(state, params.incidentNumber ?? "");
    const input = isRecord(body) ? body : {};
    const note = {
      name: text(input, "name"),
      display_name: typeof input.display_name === "string" ? input.display_name : text(input, "name"),
      json_value: input.json_value ?? null,
    };
    const notes = state.notes.get(incident.incidentNumber) ?? [];
    if (notes.some((one) => one.name === note.name))
      throw new VendorHttpError(
        409,
        `A note named ${note.name} already exists on incident ${incident.incidentNumber}`,
      );
    notes.push(note);
    state.notes.set(incident.incidentNumber, notes);
    state.changes.push({ action: "note", incidentNumber: incident.incidentNumber, note });
    return { status: 200, body: note };
  };

  return [
    ["GET", "/api-public/v1/incidents", () => ({ status: 200, body: { incidents: state.incidents } })],
    ["POST", "/api-public/v1/incidents", create],
    ["PATCH", "/api-public/v1/incidents/ack", transition("ack")],
    ["PATCH", "/api-public/v1/incidents/resolve", transition("resolve")],
    [
      "GET",
      "/api-public/v1/incidents/{incidentNumber}/notes",
      ({ params }) => ({
        status: 200,
        body: {
          notes: state.notes.get(findIncident(state, params.incidentNumber ?? "").incidentNumber) ?? [],
        },
      }),
    ],
    ["POST", "/api-public/v1/incidents/{incidentNumber}/notes", addNote],
    [
      "GET",
      "/api-public/v1/team",
      () => ({
        status: 200,
        body: state.teams.map((team) => ({ ...team, _selfUrl: `/api-public/v1/team/${team.slug}` })),
      }),
    ],
    [
      "GET",
      "/api-public/v1/oncall/current",
      () => ({
        status: 200,
        body: {
          teamsOnCall: state.teams.map((team) => ({
            team: { name: team.name, slug: team.slug },
            onCallNow: state.onCall
              .filter((one) => one.team === team.slug)
              .map((one) => ({
                escalationPolicy: { name: policyOf(one.policy)?.name ?? one.policy, slug: one.policy },
                users: one.users.map((username) => ({ onCallUser: { username } })),
              })),
          })),
        },
      }),
    ],
    [
      "GET",
      "/api-public/v1/org/routing-keys",
      () => ({
        status: 200,
        body: {
          routingKeys: state.routingKeys.map((key) => ({
            routingKey: key.routingKey,
            isDefault: key.isDefault,
            targets: key.policies.map((slug) => ({
              policyName: policyOf(slug)?.name ?? slug,
              policySlug: slug,
              _teamUrl: `/api-public/v1/team/${policyOf(slug)?.team ?? ""}`,
            })),
          })),
        },
      }),
    ],
  ];
}
