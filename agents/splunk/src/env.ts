import { SwitchboardError } from "@switchboard/common";

export interface SplunkSettings {
  /** The realm's REST API, e.g. https://api.us1.signalfx.com, without a trailing slash or /v2. */
  url: string;
  token: string;
}

/**
 * Splunk Observability Cloud settings under CAIPE's names (SPLUNK_API_URL, SPLUNK_TOKEN); a missing
 * one fails the turn that needs it, naming it.
 */
export function readSplunkSettings(env: NodeJS.ProcessEnv): SplunkSettings {
  const url = env.SPLUNK_API_URL?.trim() ?? "";
  const token = env.SPLUNK_TOKEN?.trim() ?? "";
  const missing = [...(url ? [] : ["SPLUNK_API_URL"]), ...(token ? [] : ["SPLUNK_TOKEN"])];
  if (missing.length > 0) {
    throw new SwitchboardError(
      "splunk.credentials",
      "user",
      `The Splunk agent is not configured: set ${missing.join(", ")} (your realm's API, e.g. ` +
        "https://api.us1.signalfx.com, and an org access token with the API scope, or a user API access token).",
    );
  }
  return { url: url.replace(/\/+$/, "").replace(/\/v2$/, ""), token };
}
