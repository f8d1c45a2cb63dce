import { SwitchboardError } from "@switchboard/common";

export interface ConfluenceSettings {
  /** The site, e.g. https://your-company.atlassian.net (confluence.js adds /wiki/rest/api). */
  url: string;
  email: string;
  token: string;
}

/** A setting under CAIPE's Confluence name, else under the Jira agent's Atlassian one. */
function setting(env: NodeJS.ProcessEnv, own: string, shared: string): string {
  return env[own]?.trim() || env[shared]?.trim() || "";
}

/** Confluence Cloud credentials; a missing one fails the turn that needs it, naming it. */
export function readConfluenceSettings(env: NodeJS.ProcessEnv): ConfluenceSettings {
  const url = setting(env, "CONFLUENCE_API_URL", "ATLASSIAN_API_URL");
  const email = setting(env, "CONFLUENCE_USERNAME", "ATLASSIAN_EMAIL");
  const token = setting(env, "CONFLUENCE_API_TOKEN", "ATLASSIAN_TOKEN");
  const missing = [
    ...(url ? [] : ["CONFLUENCE_API_URL"]),
    ...(email ? [] : ["CONFLUENCE_USERNAME"]),
    ...(token ? [] : ["CONFLUENCE_API_TOKEN"]),
  ];
  if (missing.length > 0) {
    throw new SwitchboardError(
      "confluence.credentials",
      "user",
      `The Confluence agent is not configured: set ${missing.join(", ")} (your site URL such as ` +
        "https://your-company.atlassian.net, the account email, and an Atlassian API token).",
    );
  }
  return { url: url.replace(/\/+$/, "").replace(/\/wiki$/, ""), email, token };
}
