import { verifiesTls } from "@switchboard/agent-runtime";
import { baseUrlSetting, notConfigured, parseEnv } from "@switchboard/common";
import { z } from "zod";

export interface ArgoCdSettings {
  /** The Argo CD server, without a trailing slash or /api/v1. */
  url: string;
  token: string;
  /** False only with ARGOCD_VERIFY_SSL=false (CAIPE's setting). */
  verifyTls: boolean;
}

const ArgoCdEnv = z.object({
  ARGOCD_API_URL: baseUrlSetting(undefined, "/api/v1"),
  ARGOCD_TOKEN: z.string().trim(),
});

/**
 * Argo CD settings under CAIPE's names, in its order of precedence; a missing one fails the turn
 * that needs it, naming it.
 */
export function readArgoCdSettings(env: NodeJS.ProcessEnv): ArgoCdSettings {
  const e = parseEnv(ArgoCdEnv, env, {
    code: "argocd.credentials",
    what: "Argo CD settings",
    aliases: {
      ARGOCD_API_URL: ["ARGOCD_API_URL", "ARGOCD_URL"],
      ARGOCD_TOKEN: ["ARGOCD_API_TOKEN", "ARGOCD_TOKEN", "ARGOCD_AUTH_TOKEN"],
    },
    unset: notConfigured(
      "Argo CD",
      "the server's URL, e.g. https://argocd.example.com, and an API token from argocd account generate-token",
    ),
  });
  return { url: e.ARGOCD_API_URL, token: e.ARGOCD_TOKEN, verifyTls: verifiesTls(env, "ARGOCD_VERIFY_SSL") };
}
