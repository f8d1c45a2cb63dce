import { SwitchboardError } from "@switchboard/common";
import { readPagerDutySettings } from "./env.js";

type Query = Record<string, string | string[]>;

export interface PagerDutyRequest {
  method?: "GET" | "POST" | "PUT";
  query?: Query;
  body?: object;
  /** Changes are made as a PagerDuty user: sends PAGERDUTY_FROM_EMAIL as the From header. */
  asUser?: boolean;
}

/** PagerDuty's error body: `{ error: { message, code, errors? } }`. */
interface PagerDutyErrorBody {
  error?: { message?: string; code?: number; errors?: string[] };
}

/**
 * Calls the PagerDuty REST API v2 through @pagerduty/pdjs, PagerDuty's own client. Settings are read
 * on each call, so the agent starts (and says what is missing) without them; every failure becomes
 * a message the model or the user can act on, never one that carries the key.
 */
export class PagerDutyConnection {
  constructor(private readonly env: NodeJS.ProcessEnv) {}

  async request<T>(path: string, options: PagerDutyRequest = {}): Promise<T> {
    const { url, apiKey, fromEmail } = readPagerDutySettings(this.env);
    const method = options.method ?? "GET";
    if (options.asUser && !fromEmail) {
      throw new SwitchboardError(
        "pagerduty.from",
        "user",
        "PagerDuty needs to know which user makes this change: set PAGERDUTY_FROM_EMAIL to a PagerDuty user's login email.",
      );
    }
    // pdjs is loaded on first use: an agent that is never asked holds no copy of it.
    const { api } = await import("@pagerduty/pdjs");
    let response: { status: number; data: unknown };
    try {
      response = await api({
        token: apiKey,
        url: `${url}${path}`,
        method,
        ...(options.query ? { queryParameters: options.query } : {}),
        ...(options.body ? { data: options.body } : {}),
        ...(options.asUser && fromEmail ? { headers: { From: fromEmail } } : {}),
      });
    } catch (error) {
      throw describeFailure(error, url);
    }
    if (response.status === 401 || response.status === 403) {
      throw new SwitchboardError(
        "pagerduty.credentials",
        "user",
        `PagerDuty refused the API key (HTTP ${response.status}): check PAGERDUTY_API_KEY and its access (a read-only key cannot change incidents).`,
      );
    }
    if (response.status >= 400) {
      const error = (response.data as PagerDutyErrorBody | undefined)?.error;
      const details = [error?.message, ...(error?.errors ?? [])].filter(Boolean).join("; ");
      const hint = /requester|from header/i.test(details) ? " (check PAGERDUTY_FROM_EMAIL)" : "";
      throw new Error(`PagerDuty answered HTTP ${response.status} to ${method} ${path}: ${details}${hint}`);
    }
    return response.data as T;
  }
}

function describeFailure(error: unknown, url: string): Error {
  // pdjs rejects with the Response itself when a body is not JSON (a proxy's HTML page, say).
  if (error instanceof Response || (error as { status?: unknown })?.status !== undefined) {
    const status = (error as { status: number }).status;
    return new Error(`PagerDuty at ${url} answered HTTP ${status} without JSON: check PAGERDUTY_API_URL.`);
  }
  const code =
    (error as { code?: string; cause?: { code?: string } })?.cause?.code ??
    (error as { code?: string })?.code;
  if (code === "ECONNREFUSED" || code === "ENOTFOUND") {
    return new SwitchboardError(
      "pagerduty.unreachable",
      "third-party",
      `Cannot reach PagerDuty at ${url} (${code}): check PAGERDUTY_API_URL.`,
    );
  }
  return error instanceof Error ? error : new Error(String(error));
}
