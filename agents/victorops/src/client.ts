import { HttpStatusError, requestJson, type ToolCallContext, VendorClient } from "@switchboard/agent-runtime";
import { SwitchboardError } from "@switchboard/common";
import { readVictorOpsSettings, type VictorOpsOrg, type VictorOpsSettings } from "./env.js";
import type { AckOrResolveResult, ActiveIncident, OnCallTeam, RoutingKeyInfo, TeamDetail } from "./format.js";

/** The calls the tools make to Splunk On-Call's public REST API (v1). */
export interface VictorOpsApi {
  listIncidents(): Promise<{ incidents?: ActiveIncident[] }>;
  createIncident(body: {
    summary: string;
    details: string;
    userName: string;
    targets: Array<{ type: "User" | "EscalationPolicy"; slug: string }>;
    isMultiResponder: boolean;
  }): Promise<{ incidentNumber?: string; error?: string }>;
  transition(
    action: "ack" | "resolve",
    body: { userName: string; incidentNames: string[]; message?: string },
  ): Promise<{ results?: AckOrResolveResult[] }>;
  addNote(
    incidentNumber: string,
    body: { name: string; display_name: string; json_value: unknown },
  ): Promise<unknown>;
  listTeams(): Promise<TeamDetail[]>;
  currentOnCall(): Promise<{ teamsOnCall?: OnCallTeam[] }>;
  listRoutingKeys(): Promise<{ routingKeys?: RoutingKeyInfo[] }>;
}

/** Each organisation's API, by its slug. */
export interface VictorOpsOrgs {
  slugs: string[];
  api(slug: string): VictorOpsApi;
}

export type VictorOpsClient = VendorClient<VictorOpsOrgs, VictorOpsSettings>;

/**
 * Splunk On-Call (VictorOps) over fetch: it ships no maintained JavaScript client, and its API is
 * a handful of JSON calls with the X-VO-Api-Id and X-VO-Api-Key headers. The runtime does the rest.
 */
export function victorOpsClient(env: NodeJS.ProcessEnv): VictorOpsClient {
  return new VendorClient(
    {
      vendor: "Splunk On-Call",
      code: "victorops",
      settings: readVictorOpsSettings,
      connect: ({ orgs }) => {
        const apis = new Map(orgs.map((org) => [org.slug, victorOpsApi(org)]));
        return {
          slugs: [...apis.keys()],
          api: (slug) => {
            const api = apis.get(slug);
            if (!api) throw new Error(`no Splunk On-Call organisation "${slug}"`);
            return api;
          },
        };
      },
      names: ({ orgs, source }) =>
        source === "VICTOROPS_ORGS"
          ? {
              url: orgs.map((org) => org.url).join(", "),
              credentials: "each organisation's api_id and api_key in VICTOROPS_ORGS",
              address: "each organisation's api_url in VICTOROPS_ORGS",
              permissionHint: "a read-only API key cannot change incidents",
            }
          : {
              url: orgs[0]?.url ?? "",
              credentials: "X_VO_API_ID and X_VO_API_KEY",
              address: "VICTOROPS_API_URL",
              permissionHint: "a read-only API key cannot change incidents",
            },
      secrets: ({ orgs }) => orgs.map((org) => org.apiKey),
      // Splunk On-Call answers a wrong id or key with 403 "Authentication failed", not 401.
      classify: (error) =>
        error instanceof HttpStatusError && error.status === 403 && /authentication/i.test(error.detail ?? "")
          ? { kind: "credentials" }
          : undefined,
    },
    env,
  );
}

function victorOpsApi({ url, apiId, apiKey }: VictorOpsOrg): VictorOpsApi {
  const request = <T>(method: "GET" | "POST" | "PATCH", path: string, body?: object) =>
    requestJson<T>({
      method,
      url: `${url}${path}`,
      headers: { "x-vo-api-id": apiId, "x-vo-api-key": apiKey },
      body,
    });
  return {
    listIncidents: () => request("GET", "/api-public/v1/incidents"),
    createIncident: (body) => request("POST", "/api-public/v1/incidents", body),
    transition: (action, body) => request("PATCH", `/api-public/v1/incidents/${action}`, body),
    addNote: (incidentNumber, body) =>
      request("POST", `/api-public/v1/incidents/${encodeURIComponent(incidentNumber)}/notes`, body),
    listTeams: () => request("GET", "/api-public/v1/team"),
    currentOnCall: () => request("GET", "/api-public/v1/oncall/current"),
    listRoutingKeys: () => request("GET", "/api-public/v1/org/routing-keys"),
  };
}

/** The Splunk On-Call user a change is made as (VICTOROPS_USERNAME), or the error saying to set it. */
export function actingUser({ username }: VictorOpsSettings): string {
  if (!username) {
    throw new SwitchboardError(
      "victorops.username",
      "user",
      "Splunk On-Call needs to know which user makes this change: set VICTOROPS_USERNAME to a Splunk On-Call username.",
    );
  }
  return username;
}

/**
 * Runs a call on one organisation: the one named, or the only one set up. Naming none of several, or
 * one not set up, is the model's to put right (a tool error listing the organisations), not a failure.
 */
export async function callOrg<T>(
  victorops: VictorOpsClient,
  ctx: ToolCallContext,
  org: string | undefined,
  run: (api: VictorOpsApi, settings: VictorOpsSettings) => Promise<T>,
): Promise<T> {
  const slugs = await victorops.call(ctx, async (orgs) => orgs.slugs);
  const slug = org ?? (slugs.length === 1 ? slugs[0] : undefined);
  if (!slug || !slugs.includes(slug)) {
    throw new Error(
      org
        ? `Splunk On-Call has no organisation "${org}" set up here; the organisations are ${slugs.join(", ")}.`
        : `Several Splunk On-Call organisations are set up (${slugs.join(", ")}): name the one to use (org).`,
    );
  }
  return victorops.call(ctx, (orgs, settings) => run(orgs.api(slug), settings));
}
