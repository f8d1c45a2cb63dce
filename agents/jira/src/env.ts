import { SwitchboardError } from "@switchboard/common";

export interface JiraSettings {
  url: string;
  email: string;
  token: string;
}

const VARIABLES = ["ATLASSIAN_API_URL", "ATLASSIAN_EMAIL", "ATLASSIAN_TOKEN"] as const;

/** Jira Cloud credentials, under CAIPE's names; a missing one fails the turn that needs it. */
export function readJiraSettings(env: NodeJS.ProcessEnv): JiraSettings {
  const missing = VARIABLES.filter((name) => !env[name]?.trim());
  if (missing.length > 0) {
    throw new SwitchboardError(
      "jira.credentials",
      "user",
      `The Jira agent is not configured: set ${missing.join(", ")} (your site URL such as ` +
        "https://your-company.atlassian.net, the account email, and an Atlassian API token).",
    );
  }
  return {
    url: (env.ATLASSIAN_API_URL ?? "").trim().replace(/\/+$/, ""),
    email: (env.ATLASSIAN_EMAIL ?? "").trim(),
    token: (env.ATLASSIAN_TOKEN ?? "").trim(),
  };
}
