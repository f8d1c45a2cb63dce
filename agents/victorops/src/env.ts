import { SwitchboardError } from "@switchboard/common";

export interface VictorOpsSettings {
  /** The public API's base, without a trailing slash. */
  url: string;
  apiId: string;
  apiKey: string;
  /** The Splunk On-Call user changes are made as; unset, the change tools say to set it. */
  username: string | undefined;
}

export const DEFAULT_VICTOROPS_API_URL = "https://api.victorops.com";

/**
 * Splunk On-Call settings under CAIPE's names (VICTOROPS_API_URL, X_VO_API_ID, X_VO_API_KEY); a
 * missing id or key fails the turn that needs them, naming them.
 */
export function readVictorOpsSettings(env: NodeJS.ProcessEnv): VictorOpsSettings {
  const apiId = env.X_VO_API_ID?.trim() ?? "";
  const apiKey = env.X_VO_API_KEY?.trim() ?? "";
  const missing = [...(apiId ? [] : ["X_VO_API_ID"]), ...(apiKey ? [] : ["X_VO_API_KEY"])];
  if (missing.length > 0) {
    throw new SwitchboardError(
      "victorops.credentials",
      "user",
      `The VictorOps agent is not configured: set ${missing.join(", ")} (the API ID and an API key ` +
        "from Splunk On-Call's Integrations > API page).",
    );
  }
  return {
    url: (env.VICTOROPS_API_URL?.trim() || DEFAULT_VICTOROPS_API_URL).replace(/\/+$/, ""),
    apiId,
    apiKey,
    username: env.VICTOROPS_USERNAME?.trim() || undefined,
  };
}
