import { SwitchboardError } from "@switchboard/common";

export interface BackstageSettings {
  /** The Backstage backend, without a trailing slash: the catalog is at `<url>/api/catalog`. */
  url: string;
  token: string;
}

/** Backstage settings under CAIPE's names; a missing one fails the turn that needs it, naming it. */
export function readBackstageSettings(env: NodeJS.ProcessEnv): BackstageSettings {
  const url = env.BACKSTAGE_URL?.trim() ?? "";
  const token = env.BACKSTAGE_API_TOKEN?.trim() ?? "";
  const missing = [...(url ? [] : ["BACKSTAGE_URL"]), ...(token ? [] : ["BACKSTAGE_API_TOKEN"])];
  if (missing.length > 0) {
    throw new SwitchboardError(
      "backstage.credentials",
      "user",
      `The Backstage agent is not configured: set ${missing.join(", ")} (the backend's URL, e.g. ` +
        "https://backstage.example.com, and a static token from backend.auth.externalAccess).",
    );
  }
  return { url: url.replace(/\/+$/, "").replace(/\/api\/catalog$/, ""), token };
}
