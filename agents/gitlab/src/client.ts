import type { Gitlab } from "@gitbeaker/rest";
import { VendorClient, type VendorFailure } from "@switchboard/agent-runtime";
import { type GitLabSettings, readGitLabSettings } from "./env.js";

type GitLabApi = InstanceType<typeof Gitlab>;
export type GitLabConnection = VendorClient<GitLabApi, GitLabSettings>;

/** A request GitLab does not answer within this fails (gitbeaker's own default is 300 s). */
const QUERY_TIMEOUT_MS = 30_000;

/** GitLab through @gitbeaker/rest: what is particular to GitLab; the runtime does the rest. */
export function gitLabConnection(env: NodeJS.ProcessEnv): GitLabConnection {
  return new VendorClient(
    {
      vendor: "GitLab",
      code: "gitlab",
      settings: readGitLabSettings,
      connect: async ({ host, token }) => {
        const { Gitlab } = await import("@gitbeaker/rest");
        return new Gitlab({ host, token, queryTimeout: QUERY_TIMEOUT_MS });
      },
      names: ({ host }) => ({
        url: host,
        credentials: "GITLAB_TOKEN (a token of the GitLab at GITLAB_HOST)",
        address: "GITLAB_HOST",
      }),
      secrets: ({ token }) => [token],
      // A user's own personal access token stands in for the service's on their calls.
      linkedToken: (token) => ({ GITLAB_TOKEN: token }),
      classify: gitLabFailure,
    },
    env,
  );
}

/** gitbeaker's errors: its message is GitLab's, its timeout and retry errors carry no status. */
function gitLabFailure(error: unknown): Partial<VendorFailure> | undefined {
  if (!(error instanceof Error)) return undefined;
  switch (error.name) {
    case "GitbeakerRequestError": {
      const status = (error.cause as { response?: Response } | undefined)?.response?.status;
      // GitLab also answers 403 to an action the object's state forbids (retrying a green
      // pipeline): the model reads it and tells the user, where a credentials error would end the turn.
      if (status === 403) {
        return {
          kind: "http",
          detail: `${error.message} (the token may lack scope api, or the action is not allowed here)`,
        };
      }
      return { detail: error.message };
    }
    case "GitbeakerTimeoutError":
      return { kind: "timeout", reason: `no answer within ${QUERY_TIMEOUT_MS / 1000} s` };
    case "GitbeakerRetryError": {
      // 429s and 502s are retried by gitbeaker; this is the last one's status.
      const status = Number(/last status code: (\d+)/.exec(error.message)?.[1]);
      return Number.isNaN(status) ? undefined : { status, detail: "still refused after gitbeaker's retries" };
    }
    default:
      return undefined;
  }
}
