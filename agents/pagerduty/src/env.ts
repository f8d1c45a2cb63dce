import { baseUrlSetting, notConfigured, parseEnv } from "@switchboard/common";
import { z } from "zod";

export interface PagerDutySettings {
  /** REST API base, without a trailing slash. */
  url: string;
  apiKey: string;
  /** The PagerDuty user changes are made as (the From header); unset, PagerDuty refuses account-key changes. */
  fromEmail: string | undefined;
}

export const DEFAULT_PAGERDUTY_API_URL = "https://api.pagerduty.com";

const PagerDutyEnv = z.object({
  PAGERDUTY_API_KEY: z.string().trim(),
  PAGERDUTY_API_URL: baseUrlSetting(DEFAULT_PAGERDUTY_API_URL),
  PAGERDUTY_FROM_EMAIL: z.string().trim().optional(),
});

/** PagerDuty settings under CAIPE's names (PAGERDUTY_API_KEY, PAGERDUTY_API_URL); a missing key fails the turn. */
export function readPagerDutySettings(env: NodeJS.ProcessEnv): PagerDutySettings {
  const e = parseEnv(PagerDutyEnv, env, {
    code: "pagerduty.credentials",
    what: "PagerDuty settings",
    unset: notConfigured(
      "PagerDuty",
      "a REST API key from Integrations > API Access Keys, or a user API token",
    ),
  });
  return { url: e.PAGERDUTY_API_URL, apiKey: e.PAGERDUTY_API_KEY, fromEmail: e.PAGERDUTY_FROM_EMAIL };
}
