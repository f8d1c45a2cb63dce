import { verifiesTls } from "@switchboard/agent-runtime";
import { baseUrlSetting, notConfigured, parseEnv } from "@switchboard/common";
import { z } from "zod";

export interface JiraSettings {
  url: string;
  email: string;
  token: string;
  /** False only with ATLASSIAN_VERIFY_SSL=false (CAIPE's setting). */
  verifyTls: boolean;
}

const JiraEnv = z.object({
  ATLASSIAN_API_URL: baseUrlSetting(),
  ATLASSIAN_EMAIL: z.string().trim(),
  ATLASSIAN_TOKEN: z.string().trim(),
});

/**
 * Jira Cloud credentials under CAIPE's names, in its Jira client's order of precedence; a missing one
 * fails the turn that needs it, naming the first name.
 */
export function readJiraSettings(env: NodeJS.ProcessEnv): JiraSettings {
  const e = parseEnv(JiraEnv, env, {
    code: "jira.credentials",
    what: "Jira settings",
    aliases: {
      ATLASSIAN_API_URL: ["ATLASSIAN_API_URL", "JIRA_API_URL", "JIRA_URL"],
      ATLASSIAN_EMAIL: ["ATLASSIAN_EMAIL", "JIRA_EMAIL", "JIRA_USER"],
      ATLASSIAN_TOKEN: ["ATLASSIAN_TOKEN", "ATLASSIAN_API_TOKEN", "JIRA_API_TOKEN", "JIRA_TOKEN"],
    },
    unset: notConfigured(
      "Jira",
      "your site URL such as https://your-company.atlassian.net, the account email, and an Atlassian API token",
    ),
  });
  return {
    url: e.ATLASSIAN_API_URL,
    email: e.ATLASSIAN_EMAIL,
    token: e.ATLASSIAN_TOKEN,
    verifyTls: verifiesTls(env, "ATLASSIAN_VERIFY_SSL"),
  };
}
