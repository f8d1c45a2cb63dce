import { verifiesTls } from "@switchboard/agent-runtime";
import { firstSetting, SwitchboardError } from "@switchboard/common";

export interface ConfluenceSettings {
  /** The site, e.g. https://your-company.atlassian.net (confluence.js adds /wiki/rest/api). */
  url: string;
  email: string;
  token: string;
  /** False only with ATLASSIAN_VERIFY_SSL=false (CAIPE's setting for Jira and Confluence). */
  verifyTls: boolean;
}

/**
 * Confluence Cloud credentials under CAIPE's names, in its Confluence client's order of precedence
 * (the shared Atlassian account first for email and token, the Confluence URL first for the site);
 * a missing one fails the turn that needs it, naming it.
 */
export function readConfluenceSettings(env: NodeJS.ProcessEnv): ConfluenceSettings {
  const url = firstSetting(env, "CONFLUENCE_API_URL", "ATLASSIAN_API_URL", "CONFLUENCE_URL") ?? "";
  const email =
    firstSetting(env, "ATLASSIAN_EMAIL", "CONFLUENCE_EMAIL", "CONFLUENCE_USER", "CONFLUENCE_USERNAME") ?? "";
  const token =
    firstSetting(env, "ATLASSIAN_TOKEN", "ATLASSIAN_API_TOKEN", "CONFLUENCE_API_TOKEN", "CONFLUENCE_TOKEN") ??
    "";
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
  return {
    url: url.replace(/\/+$/, "").replace(/\/wiki$/, ""),
    email,
    token,
    verifyTls: verifiesTls(env, "ATLASSIAN_VERIFY_SSL"),
  };
}
