import { baseUrlSetting, notConfigured, parseEnv } from "@switchboard/common";
import { z } from "zod";

export interface WebexSettings {
  /** The REST API base, e.g. https://webexapis.com/v1, without a trailing slash. */
  url: string;
  token: string;
}

export const DEFAULT_WEBEX_API_URL = "https://webexapis.com/v1";

const WebexEnv = z.object({
  WEBEX_TOKEN: z.string().trim(),
  WEBEX_API_URL: baseUrlSetting(DEFAULT_WEBEX_API_URL),
});

/** Webex settings under CAIPE's name (WEBEX_TOKEN); a missing token fails the turn that needs it. */
export function readWebexSettings(env: NodeJS.ProcessEnv): WebexSettings {
  const e = parseEnv(WebexEnv, env, {
    code: "webex.credentials",
    what: "Webex settings",
    unset: notConfigured(
      "Webex",
      "a bot's access token from developer.webex.com > My Webex Apps, or an integration's user token",
    ),
  });
  return { url: e.WEBEX_API_URL, token: e.WEBEX_TOKEN };
}
