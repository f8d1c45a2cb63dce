import { type Handler, isRecord, type RouteContext, VendorHttpError } from "../vendor-server.js";
import type { Incident, IncidentChange, PagerDutyState } from "./state.js";

const STATUSES = new Set(["triggered", "acknowledged", "resolved"]);
const URGENCIES = new Set(["high", "low"]);

/** PagerDuty's "Invalid Input Provided" (code 2001) with the reasons it lists. */
const invalid = (...errors: string[]) => new VendorHttpError(400, "Invalid Input Provided", errors);

/** `?statuses[]=a&statuses[]=b`, PagerDuty's spelling of a list filter; each value must be allowed. */
function listFilter(query: URLSearchParams, name: string, allowed?: Set<string>): string[] {
  const values = query.getAll(`${name}[]`);
  const bad = allowed ? values.filter((value) => !allowed.has(value)) : [];
  if (bad.length > 0) throw invalid(`${name} has invalid values: ${bad.join(", ")}`);
  return values;
}

/** Offset pagination as PagerDuty does it: `limit` (default 25, at most 100), `offset`, `more`. */
function page<T>(key: string, items: T[], query: URLSearchParams) {
  const limit = Math.min(Number(query.get("limit") ?? 25) || 25, 100);
  const offset = Number(query.get("offset") ?? 0) || 0;
  return {
    status: 200,
    body: {
      [key]: items.slice(offset, offset + limit),
      limit,
      offset,
      more: offset + limit < items.length,
      total: query.get("total") === "true" ? items.length : null,
    },
  };
}

/** Changes name a PagerDuty user in the From header; PagerDuty refuses them without one it knows. */
function requester(state: PagerDutyState, ctx: RouteContext) {
  const from = String(ctx.headers.from ?? "");
  const user = state.users.get(from.toLowerCase());
  if (!user) throw invalid(from ? `Requester User Not Found: ${from}` : "The From header is missing.");
  return { from, user };
}

function findIncident(state: PagerDutyState, id: string): Incident {
  const incident = state.incidents.find((one) => one.id === id || String(one.incident_number) === id);
  if (!incident) throw new VendorHttpError(404, "Incident Not Found");
  return incident;
}

function record(state: PagerDutyState, change: IncidentChange) {
  state.changes.push(change);
}

export function pagerDutyRoutes(state: PagerDutyState): Array<["GET" | "PUT" | "POST", string, Handler]> {
  const listIncidents: Handler = ({ query }) => {
    const statuses = listFilter(query, "statuses", STATUSES);
    const urgencies = listFilter(query, "urgencies", URGENCIES);
    const services = listFilter(query, "service_ids");
    // Newest first, as the incident list is usually asked for with sort_by=created_at:desc.
    const incidents = state.incidents
      .filter((one) => statuses.length === 0 || statuses.includes(one.status))
      .filter((one) => urgencies.length === 0 || urgencies.includes(one.urgency))
      .filter((one) => services.length === 0 || services.includes(one.service.id))
      .sort((a, b) => b.created_at.localeCompare(a.created_at));
    return page("incidents", incidents, query);
  };

  const getIncident: Handler = ({ params }) => ({
    status: 200,
    body: { incident: findIncident(state, params.id ?? "") },
  });

  const updateIncident: Handler = (ctx) => {
    const { from, user } = requester(state, ctx);
    const incident = findIncident(state, ctx.params.id ?? "");
    const update = isRecord(ctx.body) ? ctx.body.incident : undefined;
    if (!isRecord(update)) throw invalid("incident is required");
    if (update.type !== "incident" && update.type !== "incident_reference")
      throw invalid("incident.type must be incident or incident_reference");
    const status = update.status;
    if (status !== "acknowledged" && status !== "resolved")
      throw invalid("incident.status must be acknowledged or resolved");
    if (incident.status === "resolved") throw invalid("Incident Already Resolved");
    const now = new Date().toISOString();
    incident.status = status;
    incident.updated_at = now;
    incident.last_status_change_at = now;
    if (status === "acknowledged") incident.acknowledgements.push({ at: now, acknowledger: user });
    else incident.assignments = [];
    record(state, {
      action: status === "acknowledged" ? "acknowledge" : "resolve",
      incidentId: incident.id,
      from,
    });
    return { status: 200, body: { incident } };
  };

  const createIncident: Handler = (ctx) => {
    const { from } = requester(state, ctx);
    const input = isRecord(ctx.body) ? ctx.body.incident : undefined;
    if (!isRecord(input)) throw invalid("incident is required");
    if (input.type !== "incident") throw invalid("incident.type must be incident");
    if (typeof input.title !== "string" || !input.title.trim()) throw invalid("incident.title is required");
    const serviceRef = input.service;
    if (!isRecord(serviceRef) || serviceRef.type !== "service_reference")
      throw invalid("incident.service must be a service_reference");
    const service = state.services.find((one) => one.id === serviceRef.id);
    if (!service) throw invalid(`Service Not Found: ${String(serviceRef.id)}`);
    const urgency = input.urgency ?? "high";
    if (typeof urgency !== "string" || !URGENCIES.has(urgency))
      throw invalid("incident.urgency must be high or low");
    const body = input.body;
    if (
      body !== undefined &&
      (!isRecord(body) || body.type !== "incident_body" || typeof body.details !== "string")
    )
      throw invalid("incident.body must be an incident_body with details");
    const number = state.nextNumber++;
    const id = `Q${String(number).padStart(4, "0")}NEW${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
    const now = new Date().toISOString();
    const title = input.title.trim();
    const oncall = state.oncalls.find(
      (one) => one.escalation_policy.id === service.escalation_policy.id && one.escalation_level === 1,
    );
    const incident: Incident = {
      id,
      type: "incident",
      incident_number: number,
      title,
      summary: `[#${number}] ${title}`,
      status: "triggered",
      urgency: urgency as Incident["urgency"],
      created_at: now,
      updated_at: now,
      last_status_change_at: now,
      service: { id: service.id, type: "service_reference", summary: service.name },
      escalation_policy: service.escalation_policy,
      assignments: oncall ? [{ at: now, assignee: oncall.user }] : [],
      acknowledgements: [],
      ...(body ? { body: { type: "incident_body" as const, details: String(body.details) } } : {}),
      resolve_reason: null,
      html_url: `https://example.pagerduty.com/incidents/${id}`,
    };
    state.incidents.push(incident);
    record(state, { action: "create", incidentId: id, from });
    return { status: 201, body: { incident } };
  };

  const listOncalls: Handler = ({ query }) => {
    const schedules = listFilter(query, "schedule_ids");
    const policies = listFilter(query, "escalation_policy_ids");
    const users = listFilter(query, "user_ids");
    const oncalls = state.oncalls
      .filter((one) => schedules.length === 0 || (one.schedule && schedules.includes(one.schedule.id)))
      .filter((one) => policies.length === 0 || policies.includes(one.escalation_policy.id))
      .filter((one) => users.length === 0 || users.includes(one.user.id))
      .filter((one) => query.get("earliest") !== "true" || one.escalation_level >= 1);
    return page("oncalls", oncalls, query);
  };

  const listServices: Handler = ({ query }) => {
    const text = (query.get("query") ?? "").toLowerCase();
    return page(
      "services",
      state.services.filter((one) => one.name.toLowerCase().includes(text)),
      query,
    );
  };

  /** POST /incidents/{id}/notes: a note on the incident's timeline, as the From user. */
  const addNote: Handler = (ctx) => {
    const { from, user } = requester(state, ctx);
    const incident = findIncident(state, ctx.params.id ?? "");
    const note = isRecord(ctx.body) ? ctx.body.note : undefined;
    if (!isRecord(note) || typeof note.content !== "string" || !note.content.trim())
      throw invalid("note.content is required");
    const content = note.content;
    record(state, { action: "note", incidentId: incident.id, from, content });
    const at = new Date().toISOString();
    return {
      status: 201,
      body: { note: { id: `N${state.changes.length}`, content, created_at: at, user } },
    };
  };

  return [
    ["GET", "/incidents", listIncidents],
    ["POST", "/incidents/{id}/notes", addNote],
    ["POST", "/incidents", createIncident],
    ["GET", "/incidents/{id}", getIncident],
    ["PUT", "/incidents/{id}", updateIncident],
    ["GET", "/oncalls", listOncalls],
    ["GET", "/services", listServices],
  ];
}
