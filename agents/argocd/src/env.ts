import { verifiesTls } from "@switchboard/agent-runtime";
import { firstSetting, SwitchboardError } from "@switchboard/common";

export interface ArgoCdSettings {
  /** The Argo CD server, without a trailing slash or /api/v1. */
  url: string;
  token: string;
  /** False only with ARGOCD_VERIFY_SSL=false (CAIPE's setting). */
  verifyTls: boolean;
}

/**
 * Argo CD settings under CAIPE's names, in its order of precedence; a missing one fails the turn
 * that needs it, naming it.
 */
export function readArgoCdSettings(env: NodeJS.ProcessEnv): ArgoCdSettings {
  const url = firstSetting(env, "ARGOCD_API_URL", "ARGOCD_URL") ?? "";
  const token = firstSetting(env, "ARGOCD_API_TOKEN", "ARGOCD_TOKEN", "ARGOCD_AUTH_TOKEN") ?? "";
  const missing = [...(url ? [] : ["ARGOCD_API_URL"]), ...(token ? [] : ["ARGOCD_TOKEN"])];
  if (missing.length > 0) {
    throw new SwitchboardError(
      "argocd.credentials",
      "user",
      `The Argo CD agent is not configured: set ${missing.join(", ")} (the server's URL, e.g. ` +
        "https://argocd.example.com, and an API token from argocd account generate-token).",
    );
  }
  return {
    url: url.replace(/\/+$/, "").replace(/\/api\/v1$/, ""),
    token,
    verifyTls: verifiesTls(env, "ARGOCD_VERIFY_SSL"),
  };
}
