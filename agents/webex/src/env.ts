import { SwitchboardError } from "@switchboard/common";

export interface WebexSettings {
  /** The REST API base, e.g. https://webexapis.com/v1, without a trailing slash. */
  url: string;
  token: string;
}

export const DEFAULT_WEBEX_API_URL = "https://webexapis.com/v1";

/** Webex settings under CAIPE's name (WEBEX_TOKEN); a missing token fails the turn that needs it. */
export function readWebexSettings(env: NodeJS.ProcessEnv): WebexSettings {
  const token = env.WEBEX_TOKEN?.trim() ?? "";
  if (!token) {
    throw new SwitchboardError(
      "webex.credentials",
      "user",
      "The Webex agent is not configured: set WEBEX_TOKEN (a bot's access token from " +
        "developer.webex.com > My Webex Apps, or an integration's user token).",
    );
  }
  return { url: (env.WEBEX_API_URL?.trim() || DEFAULT_WEBEX_API_URL).replace(/\/+$/, ""), token };
}
