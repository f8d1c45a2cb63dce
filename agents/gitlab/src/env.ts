import { SwitchboardError } from "@switchboard/common";

export interface GitLabSettings {
  /** GitLab's base URL, e.g. https://gitlab.com: @gitbeaker/rest adds /api/v4. */
  host: string;
  token: string;
}

/**
 * GitLab settings under CAIPE's names: GITLAB_TOKEN (else GITLAB_PERSONAL_ACCESS_TOKEN) and
 * GITLAB_HOST, a host name as CAIPE reads it (https is implied) or a whole URL.
 */
export function readGitLabSettings(env: NodeJS.ProcessEnv): GitLabSettings {
  const token = env.GITLAB_TOKEN?.trim() || env.GITLAB_PERSONAL_ACCESS_TOKEN?.trim() || "";
  if (!token) {
    throw new SwitchboardError(
      "gitlab.credentials",
      "user",
      "The GitLab agent is not configured: set GITLAB_TOKEN (a personal, project or group access token with scope api).",
    );
  }
  const given = env.GITLAB_HOST?.trim() || "gitlab.com";
  const host = (/^https?:\/\//i.test(given) ? given : `https://${given}`)
    .replace(/\/+$/, "")
    .replace(/\/api\/v4$/, "");
  return { host, token };
}
