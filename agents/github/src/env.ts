import { readFileSync } from "node:fs";
import { firstSetting, SwitchboardError } from "@switchboard/common";

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

/**
 * GitHub settings under CAIPE's names: a GitHub App (GITHUB_APP_ID, its private key and installation)
 * when one is set, as CAIPE prefers it, else GITHUB_PERSONAL_ACCESS_TOKEN (or GITHUB_TOKEN). Missing
 * credentials fail the turn that needs them, naming what to set.
 */
export function readGithubSettings(env: NodeJS.ProcessEnv): GithubSettings {
  const apiUrl = (env.GITHUB_API_URL?.trim() || DEFAULT_GITHUB_API_URL).replace(/\/+$/, "");
  if (!URL.canParse(apiUrl) || !/^https?:$/.test(new URL(apiUrl).protocol)) {
    throw new SwitchboardError(
      "github.api-url",
      "user",
      `GITHUB_API_URL is not an http(s) URL: "${apiUrl}". Use ${DEFAULT_GITHUB_API_URL}, or https://<host>/api/v3 for GitHub Enterprise Server.`,
    );
  }
  const org = env.GITHUB_ORG?.trim() || undefined;
  return { apiUrl, auth: readAuth(env), ...(org ? { org } : {}) };
}

function readAuth(env: NodeJS.ProcessEnv): GithubAuth {
  const appId = env.GITHUB_APP_ID?.trim();
  if (appId) return readApp(env, appId);
  const token = firstSetting(env, "GITHUB_PERSONAL_ACCESS_TOKEN", "GITHUB_TOKEN");
  if (token) return { kind: "token", token };
  throw new SwitchboardError(
    "github.credentials",
    "user",
    "The GitHub agent is not configured: set GITHUB_PERSONAL_ACCESS_TOKEN (a personal access token that can read " +
      "the repositories, and write issues and pull requests if you want the agent to create them), or for a " +
      "GitHub App set GITHUB_APP_ID, GITHUB_APP_PRIVATE_KEY (or GITHUB_APP_PRIVATE_KEY_PATH) and GITHUB_APP_INSTALLATION_ID.",
  );
}

function readApp(env: NodeJS.ProcessEnv, appId: string): GithubAuth {
  const installation = env.GITHUB_APP_INSTALLATION_ID?.trim();
  const privateKey = readPrivateKey(env);
  const problems = [
    ...(/^\d+$/.test(appId) ? [] : [`GITHUB_APP_ID must be the app's numeric id, not "${appId}"`]),
    ...(installation && /^\d+$/.test(installation)
      ? []
      : [
          "set GITHUB_APP_INSTALLATION_ID to the installation's numeric id (in the URL of the app's installation page)",
        ]),
    ...(privateKey
      ? []
      : [
          "set GITHUB_APP_PRIVATE_KEY to the app's private key (PEM, or its base64) or GITHUB_APP_PRIVATE_KEY_PATH to its file",
        ]),
  ];
  if (problems.length > 0 || !privateKey) {
    throw new SwitchboardError(
      "github.credentials",
      "user",
      `The GitHub App is not configured: ${problems.join("; ")}.`,
    );
  }
  return { kind: "app", appId, privateKey, installationId: Number(installation) };
}

/** The App's key: PEM text, the same base64-encoded (as CAIPE accepts it), or a file. */
function readPrivateKey(env: NodeJS.ProcessEnv): string | undefined {
  const inline = env.GITHUB_APP_PRIVATE_KEY?.trim();
  if (inline) {
    // Env files often carry the PEM on one line with literal \n.
    const pem = inline.includes("-----BEGIN")
      ? inline
      : Buffer.from(inline, "base64").toString("utf8").trim();
    const text = pem.replace(/\\n/g, "\n");
    if (!text.includes("-----BEGIN") || !text.includes("PRIVATE KEY-----")) {
      throw new SwitchboardError(
        "github.credentials",
        "user",
        "GITHUB_APP_PRIVATE_KEY is neither a PEM private key nor its base64: paste the .pem file GitHub gave you, " +
          "or set GITHUB_APP_PRIVATE_KEY_PATH to it.",
      );
    }
    return text;
  }
  const path = env.GITHUB_APP_PRIVATE_KEY_PATH?.trim();
  if (!path) return undefined;
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new SwitchboardError(
      "github.credentials",
      "user",
      `GITHUB_APP_PRIVATE_KEY_PATH=${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"}): ` +
        "point it at the app's .pem file.",
    );
  }
}
