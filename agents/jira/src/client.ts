import { SwitchboardError } from "@switchboard/common";
import type { Version3Client } from "jira.js";
import { readJiraSettings } from "./env.js";

/**
 * The Jira client, created on first use so the agent starts (and says what is missing) without
 * credentials; every call's failure becomes a message the model or the user can act on.
 */
export class JiraConnection {
  private client: Version3Client | undefined;

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  async call<T>(run: (client: Version3Client) => Promise<T>): Promise<T> {
    this.client ??= await this.connect();
    try {
      return await run(this.client);
    } catch (error) {
      throw await describeJiraError(error);
    }
  }

  /** jira.js is loaded here, on first use: an agent that is never asked holds no copy of it. */
  private async connect(): Promise<Version3Client> {
    const { url, email, token } = readJiraSettings(this.env);
    const { Version3Client } = await import("jira.js");
    return new Version3Client({ host: url, authentication: { basic: { email, apiToken: token } } });
  }
}

async function describeJiraError(error: unknown): Promise<Error> {
  if (error instanceof SwitchboardError) return error;
  const { HttpException } = await import("jira.js");
  if (error instanceof HttpException) {
    const status = error.status ?? 0;
    if (status === 401 || status === 403) {
      return new SwitchboardError(
        "jira.credentials",
        "user",
        `Jira refused the credentials (HTTP ${status}): check ATLASSIAN_EMAIL and ATLASSIAN_TOKEN, and that the account can see this project.`,
      );
    }
    const data = (error.response as { data?: { errorMessages?: string[]; errors?: Record<string, string> } })
      ?.data;
    const details = [
      ...(data?.errorMessages ?? []),
      ...Object.entries(data?.errors ?? {}).map(([k, v]) => `${k}: ${v}`),
    ];
    return new Error(`Jira answered HTTP ${status}${details.length ? `: ${details.join("; ")}` : ""}`);
  }
  const code =
    (error as { code?: string; cause?: { code?: string } })?.cause?.code ??
    (error as { code?: string })?.code;
  if (code === "ECONNREFUSED" || code === "ENOTFOUND") {
    return new SwitchboardError(
      "jira.unreachable",
      "third-party",
      `Cannot reach Jira (${code}): check ATLASSIAN_API_URL.`,
    );
  }
  return error instanceof Error ? error : new Error(String(error));
}
