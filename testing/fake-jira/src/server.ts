import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { JiraHttpError, readBody, sendJson } from "./http.js";
import { JqlError } from "./jql.js";
import { Router } from "./router.js";
import { commentRoutes } from "./routes/comments.js";
import { issueRoutes } from "./routes/issues.js";
import { myselfRoutes } from "./routes/myself.js";
import { projectRoutes } from "./routes/projects.js";
import { searchRoutes } from "./routes/search.js";
import { transitionRoutes } from "./routes/transitions.js";
import { addSeedIssue, buildState, defaultJiraSeed, type IssueSeed, type JiraSeed } from "./seed.js";
import type { CommentRecord, FakeJiraState, IssueRecord, RequestRecord, TransitionRecord } from "./state.js";

export type { IssueSeed, JiraSeed } from "./seed.js";
export type { CommentRecord, FakeJiraState, IssueRecord, RequestRecord, TransitionRecord } from "./state.js";

export interface FakeJiraOptions {
  /** The account's email for Basic auth; default `agent@example.com`. */
  email?: string;
  /** The API token for Basic auth; default `fake-jira-token`. */
  token?: string;
  /** Default 0: a free port. */
  port?: number;
  /** Replaces the default seed (two projects, six issues); pass `{ issues: [] }` for empty projects. */
  seed?: Partial<JiraSeed>;
}

export interface FakeJira {
  /** Base URL, e.g. `http://127.0.0.1:43121`: jira.js `host` and `ATLASSIAN_API_URL`. */
  url: string;
  email: string;
  token: string;
  state: FakeJiraState;
  readonly issues: IssueRecord[];
  readonly comments: CommentRecord[];
  readonly transitions: TransitionRecord[];
  readonly requests: RequestRecord[];
  /** Adds an issue after start, e.g. for one test's scenario. */
  addIssue(seed: IssueSeed): IssueRecord;
  close(): Promise<void>;
}

const router = new Router();
searchRoutes(router);
issueRoutes(router);
commentRoutes(router);
transitionRoutes(router);
projectRoutes(router);
myselfRoutes(router);

/** Starts a Jira Cloud REST v3 look-alike on 127.0.0.1 that the real jira.js `Version3Client` can use. */
export async function startFakeJira(options: FakeJiraOptions = {}): Promise<FakeJira> {
  const email = options.email ?? "agent@example.com";
  const token = options.token ?? "fake-jira-token";
  const defaults = defaultJiraSeed();
  const state = buildState({ ...defaults, ...options.seed }, email);
  const expectedAuth = `Basic ${Buffer.from(`${email}:${token}`).toString("base64")}`;
  let baseUrl = "";

  const server = createServer((req, res) => {
    void handle(req, res, state, expectedAuth, baseUrl);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: baseUrl,
    email,
    token,
    state,
    get issues() {
      return state.issues;
    },
    get comments() {
      return state.comments;
    },
    get transitions() {
      return state.transitions;
    },
    get requests() {
      return state.requests;
    },
    addIssue: (seed) => addSeedIssue(state, seed),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  state: FakeJiraState,
  expectedAuth: string,
  baseUrl: string,
): Promise<void> {
  const url = new URL(req.url ?? "/", baseUrl);
  const method = req.method ?? "GET";
  const record: RequestRecord = {
    method,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    auth: describeAuth(req.headers.authorization),
    body: undefined,
    status: 0,
  };
  state.requests.push(record);
  let status: number;
  let body: unknown;
  try {
    record.body = await readBody(req);
    if (req.headers.authorization !== expectedAuth) {
      throw JiraHttpError.messages(401, "Client must be authenticated to access this resource.");
    }
    const match = router.match(method, url.pathname);
    if (match === undefined) {
      throw JiraHttpError.messages(
        404,
        `fake-jira has no route for ${method} ${url.pathname}; see its README.`,
      );
    }
    if (match === "method")
      throw JiraHttpError.messages(405, `Method ${method} is not allowed on ${url.pathname}.`);
    const result = await match.handler({
      state,
      params: match.params,
      query: url.searchParams,
      body: record.body,
      baseUrl,
    });
    ({ status, body } = result);
  } catch (error) {
    if (error instanceof JiraHttpError) ({ status, body } = error);
    else if (error instanceof JqlError) ({ status, body } = JiraHttpError.messages(400, error.message));
    else ({ status, body } = JiraHttpError.messages(500, `fake-jira failed: ${String(error)}`));
  }
  record.status = status;
  if (status === 401) res.setHeader("www-authenticate", 'Basic realm="protected-by-api-token"');
  sendJson(res, status, body);
}

function describeAuth(header: string | undefined): RequestRecord["auth"] {
  if (!header) return { scheme: "none" };
  const [scheme, value] = header.split(" ");
  if (scheme?.toLowerCase() !== "basic" || !value) return { scheme: "other" };
  return { scheme: "basic", email: Buffer.from(value, "base64").toString("utf8").split(":")[0] ?? "" };
}
