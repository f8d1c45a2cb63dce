import { HttpStatusError, VendorClient } from "@switchboard/agent-runtime";
import { SwitchboardError } from "@switchboard/common";
import { type PagerDutySettings, readPagerDutySettings } from "./env.js";

type Query = Record<string, string | string[]>;

export interface PagerDutyRequest {
  method?: "GET" | "POST" | "PUT";
  query?: Query;
  body?: object;
  /** Changes are made as a PagerDuty user: sends PAGERDUTY_FROM_EMAIL as the From header. */
  asUser?: boolean;
}

/** The REST API v2 as the tools use it: a path under PAGERDUTY_API_URL, answered with its JSON. */
export interface PagerDutyApi {
  request<T>(path: string, options?: PagerDutyRequest): Promise<T>;
}

export type PagerDutyConnection = VendorClient<PagerDutyApi, PagerDutySettings>;

/** PagerDuty's REST API v2 through @pagerduty/pdjs, PagerDuty's own client; the runtime does the rest. */
export function pagerDutyConnection(env: NodeJS.ProcessEnv): PagerDutyConnection {
  return new VendorClient(
    {
      vendor: "PagerDuty",
      code: "pagerduty",
      settings: readPagerDutySettings,
      connect: async (settings) => {
        // A CommonJS package: its exports are the lazy import's default, bundled or not.
        const { api } = (await import("@pagerduty/pdjs")).default;
        return { request: (path, options) => pagerDutyRequest(api, settings, path, options) };
      },
      names: ({ url }) => ({
        url,
        credentials: "PAGERDUTY_API_KEY",
        address: "PAGERDUTY_API_URL",
        permissionHint: "a read-only key cannot change incidents",
      }),
      secrets: ({ apiKey }) => [apiKey],
      // A user API token acts as that user; changes name them (From) by their verified email.
      linkedToken: (token, { email }) => ({
        PAGERDUTY_API_KEY: token,
        ...(email ? { PAGERDUTY_FROM_EMAIL: email } : {}),
      }),
    },
    env,
  );
}

type PdjsApi = typeof import("@pagerduty/pdjs").api;

/** PagerDuty's error body: `{ error: { message, code, errors? } }`. */
interface PagerDutyErrorBody {
  error?: { message?: string; code?: number; errors?: string[] };
}

/**
 * One call. pdjs resolves with PagerDuty's refusals (and rejects with the bare response when its
 * body is not JSON): both become an HttpStatusError carrying PagerDuty's own words.
 */
async function pagerDutyRequest<T>(
  api: PdjsApi,
  { url, apiKey, fromEmail }: PagerDutySettings,
  path: string,
  options: PagerDutyRequest = {},
): Promise<T> {
  const method = options.method ?? "GET";
  const operation = `${method} ${path}`;
  if (options.asUser && !fromEmail) {
    throw new SwitchboardError(
      "pagerduty.from",
      "user",
      "PagerDuty needs to know which user makes this change: set PAGERDUTY_FROM_EMAIL to a PagerDuty user's login email.",
    );
  }
  const response = await api({
    token: apiKey,
    url: `${url}${path}`,
    method,
    ...(options.query ? { queryParameters: options.query } : {}),
    ...(options.body ? { data: options.body } : {}),
    ...(options.asUser && fromEmail ? { headers: { From: fromEmail } } : {}),
  }).catch((error: unknown) => {
    const { status, headers } = error as { status?: unknown; headers?: Headers };
    if (typeof status !== "number") throw error;
    const detail = "its answer is not JSON; check PAGERDUTY_API_URL";
    throw new HttpStatusError(status, headers ?? new Headers(), detail, operation);
  });
  if (response.status >= 400) {
    const error = (response.data as PagerDutyErrorBody | undefined)?.error;
    const details = [error?.message, ...(error?.errors ?? [])].filter(Boolean).join("; ");
    const hint = /requester|from header/i.test(details) ? " (check PAGERDUTY_FROM_EMAIL)" : "";
    throw new HttpStatusError(response.status, response.headers, `${details}${hint}` || undefined, operation);
  }
  return response.data as T;
}
