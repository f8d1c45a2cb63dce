import type { Gitlab } from "@gitbeaker/rest";
import { SwitchboardError } from "@switchboard/common";
import { readGitLabSettings } from "./env.js";

type GitLabApi = InstanceType<typeof Gitlab>;

/**
 * The @gitbeaker/rest client, created on first use so the agent starts (and says what is missing)
 * without credentials; every call's failure becomes a message the model or the user can act on.
 */
export class GitLabConnection {
  private client: GitLabApi | undefined;
  private host = "";

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  async call<T>(run: (client: GitLabApi) => Promise<T>): Promise<T> {
    this.client ??= await this.connect();
    try {
      return await run(this.client);
    } catch (error) {
      throw await describeGitLabError(error, this.host);
    }
  }

  /** gitbeaker is loaded here, on first use: an agent that is never asked holds no copy of it. */
  private async connect(): Promise<GitLabApi> {
    const { host, token } = readGitLabSettings(this.env);
    const { Gitlab } = await import("@gitbeaker/rest");
    this.host = host;
    return new Gitlab({ host, token, queryTimeout: 30_000 });
  }
}

async function describeGitLabError(error: unknown, host: string): Promise<Error> {
  if (error instanceof SwitchboardError) return error;
  const { GitbeakerRequestError } = await import("@gitbeaker/rest");
  if (error instanceof GitbeakerRequestError) {
    const status = (error.cause as { response?: Response } | undefined)?.response?.status ?? 0;
    if (status === 401) {
      return new SwitchboardError(
        "gitlab.credentials",
        "user",
        "GitLab refused the token (HTTP 401): check GITLAB_TOKEN, that it has not expired, and GITLAB_HOST.",
      );
    }
    const hint = status === 403 ? " (the token may lack scope api, or the action is not allowed here)" : "";
    return new Error(`GitLab answered HTTP ${status}: ${error.message}${hint}`);
  }
  const code =
    (error as { code?: string; cause?: { code?: string } })?.cause?.code ??
    (error as { code?: string })?.code;
  if (code === "ECONNREFUSED" || code === "ENOTFOUND") {
    return new SwitchboardError(
      "gitlab.unreachable",
      "third-party",
      `Cannot reach GitLab at ${host} (${code}): check GITLAB_HOST.`,
    );
  }
  return error instanceof Error ? error : new Error(String(error));
}
