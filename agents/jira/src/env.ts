import { verifiesTls } from "@switchboard/agent-runtime";
import { firstSetting, SwitchboardError } from "@switchboard/common";

export interface JiraSettings {
  url: string;
  email: string;
  token: string;
  /** False only with ATLASSIAN_VERIFY_SSL=false (CAIPE's setting). */
  verifyTls: boolean;
}

/**
 * Jira Cloud credentials under CAIPE's names, in its Jira client's order of precedence; a missing one
 * fails the turn that needs it, naming the first name.
 */
export function readJiraSettings(env: NodeJS.ProcessEnv): JiraSettings {
  const url = firstSetting(env, "ATLASSIAN_API_URL", "JIRA_API_URL", "JIRA_URL");
  const email = firstSetting(env, "ATLASSIAN_EMAIL", "JIRA_EMAIL", "JIRA_USER");
  const token = firstSetting(env, "ATLASSIAN_TOKEN", "ATLASSIAN_API_TOKEN", "JIRA_API_TOKEN", "JIRA_TOKEN");
  const missing = [
    ...(url ? [] : ["ATLASSIAN_API_URL"]),
    ...(email ? [] : ["ATLASSIAN_EMAIL"]),
    ...(token ? [] : ["ATLASSIAN_TOKEN"]),
  ];
  if (!url || !email || !token) {
    throw new SwitchboardError(
      "jira.credentials",
      "user",
      `The Jira agent is not configured: set ${missing.join(", ")} (your site URL such as ` +
        "https://your-company.atlassian.net, the account email, and an Atlassian API token).",
    );
  }
  return { url: url.replace(/\/+$/, ""), email, token, verifyTls: verifiesTls(env, "ATLASSIAN_VERIFY_SSL") };
}
