import { httpsAgentFor, VendorClient } from "@switchboard/agent-runtime";
import type { Version3Client } from "jira.js";
import { type JiraSettings, readJiraSettings } from "./env.js";

export type JiraConnection = VendorClient<Version3Client, JiraSettings>;

/** Jira Cloud through jira.js: what is particular to Jira; the runtime does the rest. */
export function jiraConnection(env: NodeJS.ProcessEnv): JiraConnection {
  return new VendorClient(
    {
      vendor: "Jira",
      code: "jira",
      settings: readJiraSettings,
      connect: async ({ url, email, token, verifyTls }) => {
        const { Version3Client } = await import("jira.js");
        return new Version3Client({
          host: url,
          authentication: { basic: { email, apiToken: token } },
          baseRequestConfig: { httpsAgent: httpsAgentFor(verifyTls) },
        });
      },
      names: ({ url }) => ({
        url,
        credentials: "ATLASSIAN_EMAIL and ATLASSIAN_TOKEN",
        address: "ATLASSIAN_API_URL",
        permissionHint: "the account may not see this project",
      }),
      secrets: ({ token }) => [token],
      classify: jiraFailure,
    },
    env,
  );
}

interface JiraErrorBody {
  errorMessages?: string[];
  errors?: Record<string, string>;
}

/** jira.js's HttpException: Jira's messages are in its body, field errors included. */
function jiraFailure(error: unknown): { status?: number; detail?: string } | undefined {
  const { status, response } = error as { status?: number; response?: { data?: JiraErrorBody } };
  const data = response?.data;
  if (typeof status !== "number" || !data) return undefined;
  const details = [
    ...(data.errorMessages ?? []),
    ...Object.entries(data.errors ?? {}).map(([field, message]) => `${field}: ${message}`),
  ];
  return { status, ...(details.length ? { detail: details.join("; ") } : {}) };
}
