import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exchangeForInstallationToken, type FakeGithubApp, isTokenExchange } from "./app-auth.js";
import { GithubHttpError, readBody, sendJson } from "./http.js";
import { Router } from "./router.js";
import { actionRoutes } from "./routes/actions.js";
import { contentRoutes } from "./routes/contents.js";
import { issueRoutes } from "./routes/issues.js";
import { pullRoutes } from "./routes/pulls.js";
import { repoRoutes } from "./routes/repos.js";
import { userRoutes } from "./routes/user.js";
import {
  addSeedIssue,
  addSeedRun,
  buildState,
  defaultGithubSeed,
  type GithubSeed,
  type IssueSeed,
  type RunSeed,
} from "./seed.js";
import type { FakeGithubState, IssueRecord, RepoRecord, RequestRecord, WorkflowRunRecord } from "./state.js";

export type { FakeGithubApp } from "./app-auth.js";
export type { AccountSeed, GithubSeed, IssueSeed, RepoSeed, RunSeed } from "./seed.js";
export type { FakeGithubState, IssueRecord, RepoRecord, RequestRecord, WorkflowRunRecord } from "./state.js";

export interface FakeGithubOptions {
  /** The token clients must send (`token X` or `Bearer X`); default `ghp_fake_token`. */
  token?: string;
  /**
   * More tokens it accepts (users' own: `{ "ghp_alice": "alice" }`, token to login); each request
   * records which token it came with (`RequestRecord.token`).
   */
  userTokens?: Record<string, string>;
  /** A GitHub App installed here: its JWT buys installation tokens, which then act like `token`. */
  app?: FakeGithubApp;
  /** Default 0: a free port. */
  port?: number;
  /** Replaces parts of the default seed (`octo-dev` in org `acme`); `{ issues: [] }` empties issues. */
  seed?: Partial<GithubSeed>;
}

export interface FakeGithub {
  /** `http://127.0.0.1:port/api/v3`, GitHub Enterprise style: Octokit's `baseUrl` and `GITHUB_API_URL`. */
  url: string;
  /** `http://127.0.0.1:port`, the host `html_url`s point at. */
  webUrl: string;
  token: string;
  state: FakeGithubState;
  readonly repos: RepoRecord[];
  /** Issues and pull requests (a pull request has `pull` set). */
  readonly issues: IssueRecord[];
  readonly runs: WorkflowRunRecord[];
  readonly requests: RequestRecord[];
  addIssue(seed: IssueSeed): IssueRecord;
  addRun(seed: RunSeed): WorkflowRunRecord;
  close(): Promise<void>;
}

const router = new Router();
userRoutes(router);
repoRoutes(router);
pullRoutes(router);
issueRoutes(router);
actionRoutes(router);
contentRoutes(router);

/** Starts a GitHub REST look-alike on 127.0.0.1 that the real Octokit can use as its `baseUrl`. */
export async function startFakeGithub(options: FakeGithubOptions = {}): Promise<FakeGithub> {
  const token = options.token ?? "ghp_fake_token";
  const state = buildState({ ...defaultGithubSeed(), ...options.seed });
  let webUrl = "";
  // Installation tokens join the accepted ones as they are issued.
  const tokens = [token, ...Object.keys(options.userTokens ?? {})];
  const server = createServer((req, res) => {
    void handle(req, res, state, tokens, webUrl, options.app);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  webUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${webUrl}/api/v3`,
    webUrl,
    token,
    state,
    get repos() {
      return state.repos;
    },
    get issues() {
      return state.issues;
    },
    get runs() {
      return state.runs;
    },
    get requests() {
      return state.requests;
    },
    addIssue: (seed) => addSeedIssue(state, seed),
    addRun: (seed) => addSeedRun(state, seed),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function rateLimitHeaders(): Record<string, string> {
  return {
    "x-github-media-type": "github.v3; format=json",
    "x-github-request-id": randomUUID().toUpperCase(),
    "x-ratelimit-limit": "5000",
    "x-ratelimit-remaining": "4999",
    "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + 3600),
    "x-ratelimit-used": "1",
    "x-ratelimit-resource": "core",
  };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  state: FakeGithubState,
  tokens: string[],
  webUrl: string,
  app?: FakeGithubApp,
): Promise<void> {
  const requestUrl = new URL(req.url ?? "/", webUrl);
  const method = req.method ?? "GET";
  const auth = parseAuth(req.headers.authorization);
  const record: RequestRecord = {
    method,
    path: requestUrl.pathname,
    query: Object.fromEntries(requestUrl.searchParams),
    auth: auth.scheme,
    ...(auth.token ? { token: auth.token } : {}),
    body: undefined,
    status: 0,
  };
  state.requests.push(record);
  // Both `/api/v3/...` (Enterprise-style baseUrl) and bare paths (api.github.com style) are served.
  const path = requestUrl.pathname.replace(/^\/api\/v3(?=\/|$)/, "") || "/";
  let result: { status: number; body?: unknown; headers?: Record<string, string> };
  try {
    record.body = await readBody(req);
    if (isTokenExchange(method, path)) {
      result = await exchangeForInstallationToken(app, path, auth.token, tokens);
      record.status = result.status;
      sendJson(res, result.status, result.body, rateLimitHeaders());
      return;
    }
    if (auth.scheme === "none") throw new GithubHttpError(401, "Requires authentication");
    if (!auth.token || !tokens.includes(auth.token)) throw new GithubHttpError(401, "Bad credentials");
    const match = router.match(method, path);
    if (!match) throw GithubHttpError.notFound();
    result = await match.handler({
      state,
      params: match.params,
      query: requestUrl.searchParams,
      body: record.body,
      apiUrl: `${webUrl}/api/v3`,
      webUrl,
      requestUrl,
    });
  } catch (error) {
    const failure =
      error instanceof GithubHttpError
        ? error
        : new GithubHttpError(500, `fake-github failed: ${String(error)}`);
    result = { status: failure.status, body: failure.body };
  }
  record.status = result.status;
  sendJson(res, result.status, result.body, { ...rateLimitHeaders(), ...result.headers });
}

function parseAuth(header: string | undefined): { scheme: RequestRecord["auth"]; token?: string } {
  if (!header) return { scheme: "none" };
  const [scheme = "", value] = header.trim().split(/\s+/);
  const lower = scheme.toLowerCase();
  if (lower === "token" || lower === "bearer") return { scheme: lower, token: value };
  return { scheme: "other" };
}
