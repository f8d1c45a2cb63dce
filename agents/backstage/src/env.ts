import { baseUrlSetting, notConfigured, parseEnv } from "@switchboard/common";
import { z } from "zod";

export interface BackstageSettings {
  /** The Backstage backend, without a trailing slash: the catalog is at `<url>/api/catalog`. */
  url: string;
  token: string;
}

const BackstageEnv = z.object({
  BACKSTAGE_URL: baseUrlSetting(undefined, "/api/catalog"),
  BACKSTAGE_API_TOKEN: z.string().trim(),
});

/** Backstage settings under CAIPE's names; a missing one fails the turn that needs it, naming it. */
export function readBackstageSettings(env: NodeJS.ProcessEnv): BackstageSettings {
  const e = parseEnv(BackstageEnv, env, {
    code: "backstage.credentials",
    what: "Backstage settings",
    unset: notConfigured(
      "Backstage",
      "the backend's URL, e.g. https://backstage.example.com, and a static token from backend.auth.externalAccess",
    ),
  });
  return { url: e.BACKSTAGE_URL, token: e.BACKSTAGE_API_TOKEN };
}
