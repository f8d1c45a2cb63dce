import { baseUrlSetting, notConfigured, parseEnv } from "@switchboard/common";
import { z } from "zod";

export interface SplunkSettings {
  /** The realm's REST API, e.g. https://api.us1.signalfx.com, without a trailing slash or /v2. */
  url: string;
  token: string;
}

const SplunkEnv = z.object({
  SPLUNK_API_URL: baseUrlSetting(undefined, "/v2"),
  SPLUNK_TOKEN: z.string().trim(),
});

/**
 * Splunk Observability Cloud settings under CAIPE's names (SPLUNK_API_URL, SPLUNK_TOKEN); a missing
 * one fails the turn that needs it, naming it.
 */
export function readSplunkSettings(env: NodeJS.ProcessEnv): SplunkSettings {
  const e = parseEnv(SplunkEnv, env, {
    code: "splunk.credentials",
    what: "Splunk settings",
    unset: notConfigured(
      "Splunk",
      "your realm's API, e.g. https://api.us1.signalfx.com, and an org access token with the API scope, or a user API access token",
    ),
  });
  return { url: e.SPLUNK_API_URL, token: e.SPLUNK_TOKEN };
}
