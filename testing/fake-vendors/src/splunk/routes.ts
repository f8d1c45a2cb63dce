import { randomBytes } from "node:crypto";
import { type Handler, isRecord, VendorHttpError } from "../vendor-server.js";
import type { Detector, MutingRule, SplunkState } from "./state.js";

/** A SignalFx-style id: 11 URL-safe base64 characters. */
const newId = () => randomBytes(8).toString("base64url").slice(0, 11);

/**
 * The search syntax the v2 list endpoints take in `query`: `field:value` terms (a `*` wildcard)
 * joined by AND; a bare word matches any field. Enough of it for the fake.
 */
function matcher(query: string | null, fields: (item: unknown) => Record<string, string>) {
  if (!query?.trim()) return () => true;
  const terms = query.split(/\s+AND\s+/i).map((term) => {
    const [field, value] = term.includes(":") ? term.split(/:(.*)/s) : [undefined, term];
    const pattern = new RegExp(
      `^${(value ?? "")
        .trim()
        .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
        .replace(/\*/g, ".*")}$`,
      "i",
    );
    return { field: field?.trim(), pattern };
  });
  return (item: unknown) => {
    const values = fields(item);
    return terms.every(({ field, pattern }) =>
      field ? pattern.test(values[field] ?? "") : Object.values(values).some((value) => pattern.test(value)),
    );
  };
}

/** `limit` and `offset` as the v2 API reads them, and its `{ count, results }` page. */
function page<T>(items: T[], query: URLSearchParams) {
  const limit = Number(query.get("limit") ?? 50);
  const offset = Number(query.get("offset") ?? 0);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000)
    throw new VendorHttpError(400, "limit must be between 1 and 10000");
  return { status: 200, body: { count: items.length, results: items.slice(offset, offset + limit) } };
}

function findDetector(state: SplunkState, id: string): Detector {
  const detector = state.detectors.find((one) => one.id === id);
  if (!detector) throw new VendorHttpError(404, `Detector ${id} not found`);
  return detector;
}

/** The REST API v2 routes the agent uses, as Splunk Observability Cloud's API reference describes them. */
export function splunkRoutes(state: SplunkState): Array<["GET" | "POST" | "PUT", string, Handler]> {
  /** PUT /detector/{id}/enable|disable: the body lists the rules' detect labels to change. */
  const toggle =
    (action: "enable" | "disable"): Handler =>
    ({ params, body }) => {
      const detector = findDetector(state, params.id ?? "");
      if (!Array.isArray(body) || body.length === 0 || !body.every((one) => typeof one === "string"))
        throw new VendorHttpError(400, "The request body must be a non-empty array of detect labels");
      const unknown = body.filter((label) => !detector.rules.some((rule) => rule.detectLabel === label));
      if (unknown.length) throw new VendorHttpError(400, `Unknown detect label(s): ${unknown.join(", ")}`);
      for (const rule of detector.rules)
        if (body.includes(rule.detectLabel)) rule.disabled = action === "disable";
      detector.lastUpdated = Date.now();
      state.changes.push({ action, detectorId: detector.id, labels: body as string[] });
      return { status: 204 };
    };

  const clearIncident: Handler = ({ params }) => {
    const incident = state.incidents.find((one) => one.incidentId === params.id);
    if (!incident) throw new VendorHttpError(404, `Incident ${params.id} not found`);
    if (!incident.active) throw new VendorHttpError(400, `Incident ${incident.incidentId} is not active`);
    incident.active = false;
    incident.anomalyState = "MANUALLY_RESOLVED";
    incident.events.push({
      id: `${incident.incidentId}_${incident.events.length + 1}`,
      timestamp: Date.now(),
      anomalyState: "MANUALLY_RESOLVED",
    });
    state.changes.push({ action: "clear", incidentId: incident.incidentId });
    return { status: 204 };
  };

  const mute: Handler = ({ body }) => {
    const input = isRecord(body) ? body : {};
    const filters = Array.isArray(input.filters) ? input.filters.filter(isRecord) : [];
    if (filters.length === 0) throw new VendorHttpError(400, "A muting rule needs at least one filter");
    const startTime = Number(input.startTime ?? Date.now());
    const stopTime = Number(input.stopTime ?? 0);
    if (stopTime && stopTime <= startTime) throw new VendorHttpError(400, "stopTime must be after startTime");
    const rule: MutingRule = {
      id: newId(),
      description: String(input.description ?? ""),
      filters: filters.map((one) => ({
        property: String(one.property ?? ""),
        propertyValue: String(one.propertyValue ?? ""),
        NOT: one.NOT === true,
      })),
      startTime,
      stopTime,
      created: Date.now(),
      creator: "EaB1cD2eF3g",
    };
    state.mutingRules.push(rule);
    state.changes.push({ action: "mute", rule });
    return { status: 200, body: rule };
  };

  const unmute: Handler = ({ params }) => {
    const rule = state.mutingRules.find((one) => one.id === params.id);
    if (!rule) throw new VendorHttpError(404, `Muting rule ${params.id} not found`);
    rule.stopTime = Date.now();
    state.changes.push({ action: "unmute", ruleId: rule.id });
    return { status: 200, body: rule };
  };

  return [
    [
      "GET",
      "/v2/detector",
      ({ query }) => {
        const name = query.get("name")?.toLowerCase();
        return page(
          state.detectors.filter((one) => !name || one.name.toLowerCase().includes(name)),
          query,
        );
      },
    ],
    [
      "GET",
      "/v2/detector/{id}",
      ({ params }) => ({ status: 200, body: findDetector(state, params.id ?? "") }),
    ],
    ["PUT", "/v2/detector/{id}/disable", toggle("disable")],
    ["PUT", "/v2/detector/{id}/enable", toggle("enable")],
    [
      "GET",
      "/v2/detector/{id}/incidents",
      ({ params }) => ({
        status: 200,
        body: state.incidents.filter((one) => one.detectorId === findDetector(state, params.id ?? "").id),
      }),
    ],
    [
      "GET",
      "/v2/incident",
      ({ query }) => ({
        status: 200,
        body: state.incidents.filter((one) => one.active || query.get("includeResolved") === "true"),
      }),
    ],
    ["PUT", "/v2/incident/{id}/clear", clearIncident],
    [
      "GET",
      "/v2/alertmuting",
      ({ query }) => {
        const now = Date.now();
        // include=Open (the default here): rules in effect now or later; All: past ones too.
        const open = query.get("include") !== "All";
        return page(
          state.mutingRules.filter((one) => !open || !one.stopTime || one.stopTime > now),
          query,
        );
      },
    ],
    ["POST", "/v2/alertmuting", mute],
    ["PUT", "/v2/alertmuting/{id}/unmute", unmute],
    [
      "GET",
      "/v2/metric",
      ({ query }) =>
        page(
          state.metrics.filter(
            matcher(query.get("query"), (one) => ({ name: (one as { name: string }).name })),
          ),
          query,
        ),
    ],
    [
      "GET",
      "/v2/metrictimeseries",
      ({ query }) => {
        if (!query.get("query")) throw new VendorHttpError(400, "query is required");
        const match = matcher(query.get("query"), (one) => {
          const series = one as { metric: string; dimensions: Record<string, string> };
          return { sf_metric: series.metric, ...series.dimensions };
        });
        return page(state.timeSeries.filter(match), query);
      },
    ],
    [
      "GET",
      "/v2/dimension",
      ({ query }) => {
        const match = matcher(query.get("query"), (one) => {
          const dimension = one as { key: string; value: string };
          return { key: dimension.key, value: dimension.value };
        });
        return page(state.dimensions.filter(match), query);
      },
    ],
    [
      "GET",
      "/v2/event/find",
      ({ query }) => {
        const match = matcher(query.get("query"), (one) => {
          const event = one as { eventType: string; dimensions: Record<string, string> };
          return { sf_eventType: event.eventType, ...event.dimensions };
        });
        const from = Number(query.get("startTime") ?? 0);
        const to = Number(query.get("endTime") ?? Number.MAX_SAFE_INTEGER);
        const limit = Number(query.get("limit") ?? 100);
        const events = state.events
          .filter(match)
          .filter((one) => one.timestamp >= from && one.timestamp <= to)
          .sort((a, b) => b.timestamp - a.timestamp);
        return { status: 200, body: events.slice(0, limit) };
      },
    ],
    [
      "GET",
      "/v2/team",
      ({ query }) => {
        const name = query.get("name")?.toLowerCase();
        return page(
          state.teams.filter((one) => !name || one.name.toLowerCase().includes(name)),
          query,
        );
      },
    ],
  ];
}
