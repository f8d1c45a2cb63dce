import { readFileSync } from "node:fs";
import { parseEnv } from "@switchboard/common";
import { z } from "zod";

/** How the agent authenticates: a GitHub App installation (CAIPE's recommended way) or a token. */
export type GithubAuth =
  | { kind: "token"; token: string }
  | { kind: "app"; appId: string; privateKey: string; installationId: number };

export interface GithubSettings {
  /** The REST API root: https://api.github.com, or https://<host>/api/v3 for GitHub Enterprise Server. */
  apiUrl: string;
  auth: GithubAuth;
  /** GITHUB_ORG: the owner of a repository named without one, and whose repositories to list. */
  org?: string;
}

export const DEFAULT_GITHUB_API_URL = "https://api.github.com";

const NOT_CONFIGURED =
  "The GitHub agent is not configured: set GITHUB_PERSONAL_ACCESS_TOKEN (a personal access token that can read " +
  "the repositories, and write issues and pull requests if you want the agent to create them), or for a " +
  "GitHub App set GITHUB_APP_ID, GITHUB_APP_PRIVATE_KEY (or GITHUB_APP_PRIVATE_KEY_PATH) and GITHUB_APP_INSTALLATION_ID.";

const text = z.string().trim().optional();

const GithubEnv = z
  .object({
    GITHUB_API_URL: z
      .string()
      .trim()
      .default(DEFAULT_GITHUB_API_URL)
      .transform((url) => url.replace(/\/+$/, ""))
      .refine((url) => URL.canParse(url) && /^https?:$/.test(new URL(url).protocol), {
        error: (issue) =>
          `GITHUB_API_URL is not an http(s) URL: "${issue.input}". Use ${DEFAULT_GITHUB_API_URL}, or https://<host>/api/v3 for GitHub Enterprise Server.`,
        params: { code: "github.api-url" },
      }),
    GITHUB_ORG: text,
    GITHUB_PERSONAL_ACCESS_TOKEN: text,
    GITHUB_APP_ID: text,
    GITHUB_APP_INSTALLATION_ID: text,
    GITHUB_APP_PRIVATE_KEY: text,
    GITHUB_APP_PRIVATE_KEY_PATH: text,
  })
  .transform((e, ctx) => {
    const problem = (message: string, path: string[] = []) => {
      ctx.addIssue({ code: "custom", path, message });
      return z.NEVER;
    };
    const settings = { apiUrl: e.GITHUB_API_URL, ...(e.GITHUB_ORG ? { org: e.GITHUB_ORG } : {}) };
    // A GitHub App when one is set, as CAIPE prefers it; else a token.
    const appId = e.GITHUB_APP_ID;
    if (!appId) {
      const token = e.GITHUB_PERSONAL_ACCESS_TOKEN;
      return token ? { ...settings, auth: { kind: "token" as const, token } } : problem(NOT_CONFIGURED);
    }
    const installation = e.GITHUB_APP_INSTALLATION_ID;
    const privateKey = readPrivateKey(e.GITHUB_APP_PRIVATE_KEY, e.GITHUB_APP_PRIVATE_KEY_PATH);
    if ("problem" in privateKey) return problem(privateKey.problem, [privateKey.setting]);
    const problems = [
      ...(/^\d+$/.test(appId) ? [] : [`GITHUB_APP_ID must be the app's numeric id, not "${appId}"`]),
      ...(installation && /^\d+$/.test(installation)
        ? []
        : [
            "set GITHUB_APP_INSTALLATION_ID to the installation's numeric id (in the URL of the app's installation page)",
          ]),
      ...(privateKey.key
        ? []
        : [
            "set GITHUB_APP_PRIVATE_KEY to the app's private key (PEM, or its base64) or GITHUB_APP_PRIVATE_KEY_PATH to its file",
          ]),
    ];
    if (problems.length > 0 || !privateKey.key) {
      return problem(`The GitHub App is not configured: ${problems.join("; ")}.`);
    }
    return {
      ...settings,
      auth: { kind: "app" as const, appId, privateKey: privateKey.key, installationId: Number(installation) },
    };
  });

/**
 * GitHub settings under CAIPE's names: a GitHub App (GITHUB_APP_ID, its private key and installation)
 * when one is set, as CAIPE prefers it, else GITHUB_PERSONAL_ACCESS_TOKEN (or GITHUB_TOKEN). Missing
 * credentials fail the turn that needs them, naming what to set.
 */
export function readGithubSettings(env: NodeJS.ProcessEnv): GithubSettings {
  return parseEnv(GithubEnv, env, {
    code: "github.credentials",
    what: "GitHub settings",
    aliases: { GITHUB_PERSONAL_ACCESS_TOKEN: ["GITHUB_PERSONAL_ACCESS_TOKEN", "GITHUB_TOKEN"] },
  });
}

/** The App's key: PEM text, the same base64-encoded (as CAIPE accepts it), or a file; none when unset. */
function readPrivateKey(
  inline: string | undefined,
  path: string | undefined,
): { key: string | undefined } | { problem: string; setting: string } {
  if (inline) {
    // Env files often carry the PEM on one line with literal \n.
    const pem = inline.includes("-----BEGIN")
      ? inline
      : Buffer.from(inline, "base64").toString("utf8").trim();
    const key = pem.replace(/\\n/g, "\n");
    if (key.includes("-----BEGIN") && key.includes("PRIVATE KEY-----")) return { key };
    return {
      setting: "GITHUB_APP_PRIVATE_KEY",
      problem:
        "GITHUB_APP_PRIVATE_KEY is neither a PEM private key nor its base64: paste the .pem file GitHub gave you, " +
        "or set GITHUB_APP_PRIVATE_KEY_PATH to it.",
    };
  }
  if (!path) return { key: undefined };
  try {
    return { key: readFileSync(path, "utf8") };
  } catch (error) {
    return {
      setting: "GITHUB_APP_PRIVATE_KEY_PATH",
      problem:
        `GITHUB_APP_PRIVATE_KEY_PATH=${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"}): ` +
        "point it at the app's .pem file.",
    };
  }
}
