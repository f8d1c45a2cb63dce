import { type AgentTool, defineTool } from "@switchboard/agent-runtime";
import { z } from "zod";
import type { SplunkClient } from "./client.js";
import {
  type Detector,
  formatDetector,
  formatDetectorLine,
  formatIncident,
  formatMutingRule,
  type Incident,
  type MutingRule,
  type Page,
} from "./format.js";

// Splunk Observability Cloud ids are short URL-safe base64 strings, e.g. FkR3zLpAYAA; case matters.
const objectId = (what: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]{6,}$/, `a Splunk Observability ${what} id like FkR3zLpAYAA`)
    .describe(`The ${what}'s id`);
const detectorId = objectId("detector");
const search = (example: string) =>
  z
    .string()
    .min(1)
    .describe(`The v2 search syntax: field:value terms joined by AND, * as a wildcard, e.g. ${example}`);
const limit = z.number().int().min(1).max(200).default(50);

export function splunkTools(splunk: SplunkClient): AgentTool[] {
  return [
    listDetectors(splunk),
    getDetector(splunk),
    listIncidents(splunk),
    listMutingRules(splunk),
    searchMetrics(splunk),
    searchTimeSeries(splunk),
    searchDimensions(splunk),
    findEvents(splunk),
    listTeams(splunk),
    disableDetector(splunk),
    enableDetector(splunk),
    clearIncident(splunk),
    muteAlerts(splunk),
    unmuteAlerts(splunk),
  ];
}

const listDetectors = (splunk: SplunkClient) =>
  defineTool({
    name: "list_detectors",
    description:
      "List Splunk Observability detectors and their rules (label, severity, disabled), optionally by name",
    schema: z.object({ name: z.string().optional().describe("A text the detector's name contains"), limit }),
    run: async ({ name, limit }, ctx) => {
      const page = await splunk.call(ctx, (api) => api.get<Page<Detector>>("/detector", { name, limit }));
      if (page.results.length === 0) return name ? `No detectors named like "${name}".` : "No detectors.";
      const more = page.count > page.results.length ? `\n(${page.count} in all; narrow by name)` : "";
      return `${page.results.map(formatDetectorLine).join("\n")}${more}`;
    },
  });

const getDetector = (splunk: SplunkClient) =>
  defineTool({
    name: "get_detector",
    description: "Get one detector: its rules, teams and SignalFlow program, and its incidents",
    schema: z.object({ detector: detectorId }),
    resource: ({ detector }) => ({ detector }),
    run: async ({ detector }, ctx) => {
      const [found, incidents] = await Promise.all([
        splunk.call(ctx, (api) => api.get<Detector>(`/detector/${detector}`)),
        splunk.call(ctx, (api) => api.get<Incident[]>(`/detector/${detector}/incidents`)),
      ]);
      const list = incidents.length ? incidents.map(formatIncident).join("\n") : "none";
      return `${formatDetector(found)}\nIncidents:\n${list}`;
    },
  });

const listIncidents = (splunk: SplunkClient) =>
  defineTool({
    name: "list_incidents",
    description: "List Splunk Observability alert incidents: the active ones, or cleared ones too",
    schema: z.object({ include_cleared: z.boolean().default(false), limit }),
    run: async ({ include_cleared, limit }, ctx) => {
      const incidents = await splunk.call(ctx, (api) =>
        api.get<Incident[]>("/incident", { includeResolved: include_cleared, limit }),
      );
      if (incidents.length === 0) return include_cleared ? "No incidents." : "No active incidents.";
      return incidents.map(formatIncident).join("\n");
    },
  });

const listMutingRules = (splunk: SplunkClient) =>
  defineTool({
    name: "list_muting_rules",
    description: "List alert muting rules in effect now or later (or all, past ones too)",
    schema: z.object({ all: z.boolean().default(false), limit }),
    run: async ({ all, limit }, ctx) => {
      const page = await splunk.call(ctx, (api) =>
        api.get<Page<MutingRule>>("/alertmuting", { include: all ? "All" : "Open", limit }),
      );
      return page.results.length ? page.results.map(formatMutingRule).join("\n") : "No muting rules.";
    },
  });

const searchMetrics = (splunk: SplunkClient) =>
  defineTool({
    name: "search_metrics",
    description: "Find metrics by name (metric metadata: type, description)",
    schema: z.object({ query: search("name:http.server.*"), limit }),
    run: async ({ query, limit }, ctx) => {
      const page = await splunk.call(ctx, (api) =>
        api.get<Page<{ name: string; type: string; description?: string }>>("/metric", { query, limit }),
      );
      if (page.results.length === 0) return `No metrics match ${query}.`;
      return page.results
        .map((one) => `${one.name} [${one.type}]${one.description ? `: ${one.description}` : ""}`)
        .join("\n");
    },
  });

const searchTimeSeries = (splunk: SplunkClient) =>
  defineTool({
    name: "search_time_series",
    description: "Find metric time series (a metric and its dimensions), e.g. which hosts report a metric",
    schema: z.object({ query: search("sf_metric:cpu.utilization AND host:web-*"), limit }),
    run: async ({ query, limit }, ctx) => {
      const page = await splunk.call(ctx, (api) =>
        api.get<Page<{ id: string; metric: string; dimensions: Record<string, string> }>>(
          "/metrictimeseries",
          {
            query,
            limit,
          },
        ),
      );
      if (page.results.length === 0) return `No time series match ${query}.`;
      return page.results
        .map(
          (one) =>
            `${one.metric} {${Object.entries(one.dimensions)
              .map(([k, v]) => `${k}=${v}`)
              .join(", ")}} (id ${one.id})`,
        )
        .join("\n");
    },
  });

const searchDimensions = (splunk: SplunkClient) =>
  defineTool({
    name: "search_dimensions",
    description: "Find dimension values and their metadata (description, tags, custom properties)",
    schema: z.object({ query: search("key:service"), limit }),
    run: async ({ query, limit }, ctx) => {
      const page = await splunk.call(ctx, (api) =>
        api.get<
          Page<{
            key: string;
            value: string;
            description?: string;
            tags?: string[];
            customProperties?: Record<string, string>;
          }>
        >("/dimension", { query, limit }),
      );
      if (page.results.length === 0) return `No dimensions match ${query}.`;
      return page.results
        .map((one) => {
          const props = Object.entries(one.customProperties ?? {}).map(([k, v]) => `${k}=${v}`);
          const extra = [
            one.description,
            one.tags?.length ? `tags ${one.tags.join(", ")}` : "",
            props.join(", "),
          ]
            .filter(Boolean)
            .join("; ");
          return `${one.key}=${one.value}${extra ? ` (${extra})` : ""}`;
        })
        .join("\n");
    },
  });

const findEvents = (splunk: SplunkClient) =>
  defineTool({
    name: "find_events",
    description: "Find custom events (deploys, config changes) of the last hours, newest first",
    schema: z.object({
      query: search("sf_eventType:deploy AND service:checkout").optional(),
      hours: z
        .number()
        .min(0.1)
        .max(24 * 31)
        .default(24),
      limit,
    }),
    run: async ({ query, hours, limit }, ctx) => {
      const endTime = Date.now();
      const events = await splunk.call(ctx, (api) =>
        api.get<
          Array<{
            eventType: string;
            timestamp: number;
            dimensions?: Record<string, string>;
            properties?: Record<string, string>;
          }>
        >("/event/find", { query: query ?? "*", startTime: endTime - hours * 3_600_000, endTime, limit }),
      );
      if (events.length === 0) return `No events in the last ${hours} h${query ? ` matching ${query}` : ""}.`;
      const pairs = (record: Record<string, string> = {}) =>
        Object.entries(record)
          .map(([k, v]) => `${k}=${v}`)
          .join(", ");
      return events
        .map(
          (one) =>
            `${new Date(one.timestamp).toISOString()} ${one.eventType} {${pairs(one.dimensions)}} ${pairs(one.properties)}`,
        )
        .join("\n");
    },
  });

const listTeams = (splunk: SplunkClient) =>
  defineTool({
    name: "list_teams",
    description: "List Splunk Observability teams (id, name, member count), optionally by name",
    schema: z.object({ name: z.string().optional() }),
    run: async ({ name }, ctx) => {
      const page = await splunk.call(ctx, (api) =>
        api.get<Page<{ id: string; name: string; description?: string; members?: string[] }>>("/team", {
          name,
        }),
      );
      if (page.results.length === 0) return name ? `No teams named like "${name}".` : "No teams.";
      return page.results
        .map(
          (one) =>
            `${one.name} (id ${one.id}), ${one.members?.length ?? 0} members${one.description ? `: ${one.description}` : ""}`,
        )
        .join("\n");
    },
  });

/** Enable or disable a detector's rules: those named, else every rule it has. */
const toggleDetector = (splunk: SplunkClient, action: "enable" | "disable") =>
  defineTool({
    name: `${action}_detector`,
    description:
      action === "disable"
        ? "Disable a detector's rules (all, or those named by detect label): they stop alerting"
        : "Enable a detector's rules (all, or those named by detect label) again",
    schema: z.object({
      detector: detectorId,
      labels: z.array(z.string().min(1)).optional().describe("The rules' detect labels; default: every rule"),
    }),
    confirm: ({ detector, labels }) =>
      `${action === "disable" ? "Disable" : "Enable"} ${labels?.length ? `the rules ${labels.map((one) => `"${one}"`).join(", ")} of` : "every rule of"} Splunk detector ${detector}.`,
    resource: ({ detector }) => ({ detector }),
    run: async ({ detector, labels }, ctx) => {
      const found = await splunk.call(ctx, (api) => api.get<Detector>(`/detector/${detector}`));
      const chosen = labels?.length ? labels : (found.rules ?? []).map((rule) => rule.detectLabel);
      await splunk.call(ctx, (api) => api.put(`/detector/${detector}/${action}`, chosen));
      return `${action === "disable" ? "Disabled" : "Enabled"} ${chosen.map((one) => `"${one}"`).join(", ")} on ${found.name} (${detector}).`;
    },
  });

const disableDetector = (splunk: SplunkClient) => toggleDetector(splunk, "disable");
const enableDetector = (splunk: SplunkClient) => toggleDetector(splunk, "enable");

const clearIncident = (splunk: SplunkClient) =>
  defineTool({
    name: "clear_incident",
    description: "Clear (manually resolve) an active Splunk Observability incident",
    schema: z.object({ incident: objectId("incident") }),
    confirm: ({ incident }) => `Clear Splunk incident ${incident}.`,
    resource: ({ incident }) => ({ incident }),
    run: async ({ incident }, ctx) => {
      await splunk.call(ctx, (api) => api.put(`/incident/${incident}/clear`));
      return `Cleared incident ${incident}.`;
    },
  });

const muteAlerts = (splunk: SplunkClient) =>
  defineTool({
    name: "mute_alerts",
    description:
      "Create an alert muting rule: alerts whose dimension matches are muted for a number of minutes (from now)",
    schema: z.object({
      property: z.string().min(1).describe("A dimension or property, e.g. service, host, sf_detectorId"),
      value: z.string().min(1),
      minutes: z
        .number()
        .int()
        .min(1)
        .max(60 * 24 * 30),
      reason: z.string().min(1),
    }),
    confirm: ({ property, value, minutes, reason }) =>
      `Mute Splunk alerts where ${property}=${value} for ${minutes} minutes ("${reason}").`,
    // A policy names what is muted as Splunk writes dimension filters: `service:etl`.
    resource: ({ property, value }) => ({ dimension: `${property}:${value}` }),
    run: async ({ property, value, minutes, reason }, ctx) => {
      const startTime = Date.now();
      const rule = await splunk.call(ctx, (api) =>
        api.post<MutingRule>("/alertmuting", {
          description: reason,
          filters: [{ property, propertyValue: value, NOT: false }],
          startTime,
          stopTime: startTime + minutes * 60_000,
        }),
      );
      return `Created muting rule ${formatMutingRule(rule)}.`;
    },
  });

const unmuteAlerts = (splunk: SplunkClient) =>
  defineTool({
    name: "unmute_alerts",
    description: "End an alert muting rule now",
    schema: z.object({ rule: objectId("muting rule") }),
    confirm: ({ rule }) => `End Splunk muting rule ${rule} now (its alerts notify again).`,
    resource: ({ rule }) => ({ muting_rule: rule }),
    run: async ({ rule }, ctx) => {
      await splunk.call(ctx, (api) => api.put(`/alertmuting/${rule}/unmute`));
      return `Ended muting rule ${rule}.`;
    },
  });
