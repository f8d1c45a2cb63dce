import { SwitchboardError } from "@switchboard/common";

export interface PagerDutySettings {
  /** REST API base, without a trailing slash. */
  url: string;
  apiKey: string;
  /** The PagerDuty user changes are made as (the From header); unset, PagerDuty refuses account-key changes. */
  fromEmail: string | undefined;
}

export const DEFAULT_PAGERDUTY_API_URL = "https://api.pagerduty.com";

/** PagerDuty settings under CAIPE's names (PAGERDUTY_API_KEY, PAGERDUTY_API_URL); a missing key fails the turn. */
export function readPagerDutySettings(env: NodeJS.ProcessEnv): PagerDutySettings {
  const apiKey = env.PAGERDUTY_API_KEY?.trim() ?? "";
  if (!apiKey) {
    throw new SwitchboardError(
      "pagerduty.credentials",
      "user",
      "The PagerDuty agent is not configured: set PAGERDUTY_API_KEY (a REST API key from " +
        "Integrations > API Access Keys, or a user API token).",
    );
  }
  return {
    url: (env.PAGERDUTY_API_URL?.trim() || DEFAULT_PAGERDUTY_API_URL).replace(/\/+$/, ""),
    apiKey,
    fromEmail: env.PAGERDUTY_FROM_EMAIL?.trim() || undefined,
  };
}
