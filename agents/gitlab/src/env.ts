import { notConfigured, parseEnv } from "@switchboard/common";
import { z } from "zod";

export interface GitLabSettings {
  /** GitLab's base URL, e.g. https://gitlab.com: @gitbeaker/rest adds /api/v4. */
  host: string;
  token: string;
}

const GitLabEnv = z.object({
  GITLAB_TOKEN: z.string().trim(),
  // A host name as CAIPE reads it (https is implied), or a whole URL.
  GITLAB_HOST: z
    .string()
    .trim()
    .default("gitlab.com")
    .transform((given) =>
      (/^https?:\/\//i.test(given) ? given : `https://${given}`)
        .replace(/\/+$/, "")
        .replace(/\/api\/v4$/, ""),
    ),
});

/**
 * GitLab settings under CAIPE's names: GITLAB_TOKEN (else GITLAB_PERSONAL_ACCESS_TOKEN) and
 * GITLAB_HOST, a host name as CAIPE reads it (https is implied) or a whole URL.
 */
export function readGitLabSettings(env: NodeJS.ProcessEnv): GitLabSettings {
  const e = parseEnv(GitLabEnv, env, {
    code: "gitlab.credentials",
    what: "GitLab settings",
    aliases: { GITLAB_TOKEN: ["GITLAB_TOKEN", "GITLAB_PERSONAL_ACCESS_TOKEN"] },
    unset: notConfigured("GitLab", "a personal, project or group access token with scope api"),
  });
  return { host: e.GITLAB_HOST, token: e.GITLAB_TOKEN };
}
