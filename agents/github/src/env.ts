import { SwitchboardError } from "@switchboard/common";

export interface GithubSettings {
  /** The REST API root: https://api.github.com, or https://<host>/api/v3 for GitHub Enterprise Server. */
  apiUrl: string;
  token: string;
}

export const DEFAULT_GITHUB_API_URL = "https://api.github.com";

/** GitHub settings, under CAIPE's names; a missing token fails the turn that needs it. */
export function readGithubSettings(env: NodeJS.ProcessEnv): GithubSettings {
  const token = env.GITHUB_PERSONAL_ACCESS_TOKEN?.trim();
  if (!token) {
    throw new SwitchboardError(
      "github.credentials",
      "user",
      "The GitHub agent is not configured: set GITHUB_PERSONAL_ACCESS_TOKEN (a personal access token that can " +
        "read the repositories, and write issues and pull requests if you want the agent to create them).",
    );
  }
  const apiUrl = (env.GITHUB_API_URL?.trim() || DEFAULT_GITHUB_API_URL).replace(/\/+$/, "");
  if (!URL.canParse(apiUrl) || !/^https?:$/.test(new URL(apiUrl).protocol)) {
    throw new SwitchboardError(
      "github.api-url",
      "user",
      `GITHUB_API_URL is not an http(s) URL: "${apiUrl}". Use ${DEFAULT_GITHUB_API_URL}, or https://<host>/api/v3 for GitHub Enterprise Server.`,
    );
  }
  return { apiUrl, token };
}
