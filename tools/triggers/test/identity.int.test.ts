import { createHmac } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AgentProcess, type Fleet, onlyAgents, startAgentProcess, startFleet } from "@switchboard/fleet";
import { type FakeJira, startFakeJira } from "@switchboard-testing/fake-jira";
import { type FakeSlack, startFakeSlack } from "@switchboard-testing/fake-slack";
import { freePort } from "@switchboard-testing/test-agents";
import { type IdentityProvider, signIn, startIdentityProvider } from "@switchboard-testing/test-idp";
import {
  callTool,
  replyFromToolResult,
  routeByAgentPrefix,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { testMongoEnv, uniqueDbName } from "@switchboard-testing/test-mongo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repoRoot = join(import.meta.dirname, "..", "..", "..");
const packageDir = join(import.meta.dirname, "..");
const SECRET = "generic-secret-for-identity-tests";
/**
 * The on-call trigger's client may reach and read, and ask for changes, which an on-call lead (and
 * nobody else) approves; no other principal may do anything.
 */
const POLICIES = `
@id("oncall-trigger-reads")
permit(principal == Switchboard::User::"triggers-oncall",
  action in [Switchboard::Action::"reach", Switchboard::Action::"read", Switchboard::Action::"change"], resource);
@id("search-task-searches")
permit(principal == Switchboard::User::"triggers-search", action == Switchboard::Action::"reach", resource);
permit(principal == Switchboard::User::"triggers-search", action == Switchboard::Action::"read",
  resource in Switchboard::Tool::"jira/search_issues");
@id("get-task-gets")
permit(principal == Switchboard::User::"triggers-get", action == Switchboard::Action::"reach", resource);
permit(principal == Switchboard::User::"triggers-get", action == Switchboard::Action::"read",
  resource in Switchboard::Tool::"jira/get_issue");
@id("oncall-leads-approve-the-trigger")
permit(principal in Switchboard::Group::"oncall-leads", action == Switchboard::Action::"approve", resource)
when { resource.requester == Switchboard::User::"triggers-oncall" };
`;
const TASKS = `
tasks:
  - id: look
    name: Look at PLAT
    prompt: "jira: open issues in PLAT"
    trigger: { type: webhook, provider: generic_hmac, secret_env: LOOK_SECRET }
    deliver_to: [{ slack: { channel: C0IDENTITY } }]
  - id: file
    name: File a ticket
    prompt: "jira: file in PLAT {{summary}}"
    trigger: { type: webhook, provider: generic_hmac, secret_env: LOOK_SECRET }
    deliver_to: [{ slack: { channel: C0IDENTITY } }]
  # Two tasks with principals of their own, each granted one tool; the payload says what to ask.
  - id: search
    name: Search PLAT
    prompt: "jira: {{ask}}"
    trigger: { type: webhook, provider: generic_hmac, secret_env: LOOK_SECRET,
      client_id_env: SEARCH_CLIENT_ID, client_secret_env: SEARCH_CLIENT_SECRET }
    deliver_to: [{ slack: { channel: C0IDENTITY } }]
  - id: get
    name: Get an issue
    prompt: "jira: {{ask}}"
    trigger: { type: webhook, provider: generic_hmac, secret_env: LOOK_SECRET,
      client_id_env: GET_CLIENT_ID, client_secret_env: GET_CLIENT_SECRET }
    deliver_to: [{ slack: { channel: C0IDENTITY } }]
`;
/** The two tasks' own clients, as their variables hold them. */
const TASK_CLIENTS = {
  SEARCH_CLIENT_ID: "triggers-search",
  SEARCH_CLIENT_SECRET: "search-secret-3f9c",
  GET_CLIENT_ID: "triggers-get",
  GET_CLIENT_SECRET: "get-secret-8a1d",
};

describe("Triggers under AUTH_MODE=jwt: a run acts as the service's own client, as the policies allow it", () => {
  const storage = testMongoEnv(uniqueDbName("triggers-identity"));
  let idp: IdentityProvider;
  let llm: ScriptedLlm;
  let jira: FakeJira;
  let slack: FakeSlack;
  let fleet: Fleet;
  const receivers: Record<string, AgentProcess> = {};
  /** The on-call receiver's settings. */
  let receiverEnv: NodeJS.ProcessEnv;
  let web: AgentProcess;

  beforeAll(async () => {
    idp = await startIdentityProvider({
      users: { lead: { groups: ["oncall-leads", "people"] }, mallory: { groups: ["people"] } },
      serviceClients: [
        { clientId: "triggers-oncall", clientSecret: "oncall-secret" },
        { clientId: "triggers-other", clientSecret: "other-secret" },
        { clientId: TASK_CLIENTS.SEARCH_CLIENT_ID, clientSecret: TASK_CLIENTS.SEARCH_CLIENT_SECRET },
        { clientId: TASK_CLIENTS.GET_CLIENT_ID, clientSecret: TASK_CLIENTS.GET_CLIENT_SECRET },
      ],
    });
    [llm, jira, slack] = await Promise.all([
      startScriptedLlm({
        script: rules(
          [
            ...routeByAgentPrefix(),
            {
              lastUser: /^file in ([A-Z]+) "([^"]+)"/,
              reply: (_r, { match }) =>
                callTool("create_issue", { project: match?.[1], summary: match?.[2], issue_type: "Task" }),
            },
            {
              lastUser: /show issue ([A-Z]+-\d+)/,
              reply: (_r, { match }) => callTool("get_issue", { key: match?.[1] }),
            },
            {
              lastUser: /open issues in ([A-Z]+)/,
              reply: (_r, { match }) =>
                callTool("search_issues", { jql: `project = ${match?.[1]} ORDER BY key` }),
            },
            { afterTool: true, reply: replyFromToolResult() },
          ],
          say("ok"),
        ),
      }),
      startFakeJira(),
      startFakeSlack({ users: [] }),
    ]);
    const policyFile = join(mkdtempSync(join(tmpdir(), "triggers-policies-")), "policies.cedar");
    writeFileSync(policyFile, POLICIES);
    const auth = {
      AUTH_MODE: "jwt",
      AUTH_JWKS_URL: idp.jwksUrl,
      AUTH_ISSUER: idp.issuer,
      AUTH_AUDIENCE: idp.audience,
    };
    fleet = await startFleet({
      root: repoRoot,
      env: {
        PATH: process.env.PATH,
        LOG_LEVEL: "warn",
        ...storage,
        ...llm.env,
        ...auth,
        AUTHZ_POLICY_FILE: policyFile,
        ATLASSIAN_API_URL: jira.url,
        ATLASSIAN_EMAIL: jira.email,
        ATLASSIAN_TOKEN: jira.token,
        ...onlyAgents(repoRoot, ["jira"]),
        SUPERVISOR_PORT: String(await freePort()),
        JIRA_AGENT_PORT: String(await freePort()),
        WEB_PORT: String(await freePort()),
        OIDC_ISSUER: idp.issuer,
        OIDC_CLIENT_ID: idp.clientId,
        OIDC_SCOPE: idp.scope,
      },
    });
    const configFile = join(mkdtempSync(join(tmpdir(), "triggers-")), "triggers.yaml");
    writeFileSync(configFile, TASKS);
    const env = (clientId: string, clientSecret: string): NodeJS.ProcessEnv => ({
      PATH: process.env.PATH,
      LOG_LEVEL: "warn",
      ...storage,
      ...auth,
      HOST: "127.0.0.1",
      PORT: "0",
      TRIGGERS_CONFIG_FILE: configFile,
      CAIPE_URL: fleet.supervisor.url,
      SLACK_INTEGRATION_BOT_TOKEN: slack.botToken,
      SLACK_API_URL: slack.apiUrl,
      LOOK_SECRET: SECRET,
      ...TASK_CLIENTS,
      DYNAMIC_AGENTS_OAUTH2_TOKEN_URL: idp.tokenUrl,
      DYNAMIC_AGENTS_OAUTH2_CLIENT_ID: clientId,
      DYNAMIC_AGENTS_OAUTH2_CLIENT_SECRET: clientSecret,
      DYNAMIC_AGENTS_OAUTH2_SCOPE: "switchboard",
    });
    receiverEnv = env("triggers-oncall", "oncall-secret");
    const [oncall, other, wrong, brief] = await Promise.all([
      startAgentProcess(packageDir, { env: env("triggers-oncall", "oncall-secret") }),
      startAgentProcess(packageDir, { env: env("triggers-other", "other-secret") }),
      startAgentProcess(packageDir, { env: env("triggers-oncall", "not-the-secret") }),
      // Its changes wait one second for an answer.
      startAgentProcess(packageDir, {
        env: { ...env("triggers-oncall", "oncall-secret"), CONFIRMATION_EXPIRY_SECONDS: "1" },
      }),
    ]);
    Object.assign(receivers, { oncall, other, wrong, brief });
    // The web chat, showing the on-call receiver's runs on its Triggers page.
    web = await startAgentProcess(join(repoRoot, "tools", "web"), {
      env: {
        PATH: process.env.PATH,
        LOG_LEVEL: "warn",
        HOST: "127.0.0.1",
        PORT: "0",
        SWITCHBOARD_URL: fleet.supervisor.url,
        TRIGGERS_URL: oncall.url,
      },
    });
    [tokens.lead, tokens.mallory] = await Promise.all([signIn(idp, "lead"), signIn(idp, "mallory")]);
  });
  const tokens: Record<string, string> = {};

  afterAll(async () => {
    await Promise.all(
      [...Object.values(receivers), ...(web ? [web] : [])].map((child) => child.kill("SIGTERM")),
    );
    await fleet?.stop();
    await Promise.all([llm?.close(), jira?.close(), slack?.close(), idp?.close()]);
  });

  interface Run {
    run_id: string;
    status: string;
    error?: string;
    thread?: { ts: string };
    confirmation?: { question: string; decided_by?: string };
  }
  const runsOf = async (receiver: AgentProcess, task: string, token = tokens.lead): Promise<Run[]> =>
    (
      (await (
        await fetch(`${receiver.url}/api/v1/tasks/${task}/runs`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).json()) as { runs: Run[] }
    ).runs;
  const repliesIn = (run: Run) =>
    slack.workspace
      .thread("C0IDENTITY", run.thread?.ts as string)
      .slice(1)
      .map((m) => m.text)
      .join("\n");
  /** Waits until the run is no longer `running` (or, with `until`, has that status). */
  async function settled(receiver: AgentProcess, task: string, runId: string, until?: string) {
    for (;;) {
      const run = (await runsOf(receiver, task)).find((r) => r.run_id === runId);
      if (run && (until ? run.status === until : run.status !== "running")) return run;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  /** Sends a signed delivery of `body` to a receiver's task; resolves with its run id. */
  async function send(receiver: AgentProcess, task: string, body: string): Promise<string> {
    const t = String(Math.floor(Date.now() / 1000));
    const answer = await fetch(`${receiver.url}/api/v1/hooks/${task}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-webhook-timestamp": t,
        "x-webhook-signature-256": `sha256=${createHmac("sha256", SECRET).update(`${t}.${body}`).digest("hex")}`,
      },
      body,
    });
    expect(answer.status).toBe(202);
    return ((await answer.json()) as { run_id: string }).run_id;
  }
  /** Sends a signed delivery `ref` to a receiver; resolves with the replies in its run's Slack thread. */
  async function deliver(receiver: AgentProcess, ref: string) {
    const runId = await send(receiver, "look", JSON.stringify({ ref }));
    const run = await settled(receiver, "look", runId);
    return { run, text: repliesIn(run) };
  }
  const decide = (receiver: AgentProcess, runId: string, decision: string, token?: string) =>
    fetch(`${receiver.url}/api/v1/runs/${runId}/decision`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ decision }),
    });
  const filed = (summary: string) => jira.issues.filter((issue) => issue.summary === summary);

  it("the on-call trigger's client reads PLAT's issues, as the policy allows it", async () => {
    const { run, text } = await deliver(receivers.oncall as AgentProcess, "allowed");
    expect(run.status, text).toBe("success");
    expect(text).toMatch(/PLAT-\d+/);
  });

  it("another client, which no policy names, gets nothing from the agents", async () => {
    const { text } = await deliver(receivers.other as AgentProcess, "not-allowed");
    expect(text).not.toMatch(/PLAT-\d+/);
    expect(text).toMatch(/triggers-other|may not|not allowed|denied/i);
  });

  it("a wrong client secret fails the run naming the settings, never showing the secret", async () => {
    const { run, text } = await deliver(receivers.wrong as AgentProcess, "wrong-secret");
    expect(run.status).toBe("failed");
    expect(text).toMatch(/DYNAMIC_AGENTS_OAUTH2_CLIENT_SECRET/);
    expect(`${text}${run.error}`).not.toContain("not-the-secret");
  });

  it("two tasks act as their own clients, each allowed only its own tool, whatever a payload asks of it", async () => {
    const oncall = receivers.oncall as AgentProcess;
    /** A signed delivery asking `task` to `ask`; resolves with the run and the replies in its thread. */
    const ask = async (task: string, what: string) => {
      const run = await settled(oncall, task, await send(oncall, task, JSON.stringify({ ask: what })));
      return { run, text: repliesIn(run) };
    };
    const [searched, got] = await Promise.all([
      ask("search", "open issues in PLAT"),
      ask("get", "show issue PLAT-1"),
    ]);
    expect(searched.run.status, searched.text).toBe("success");
    expect(searched.text).toMatch(/PLAT-1\b[\s\S]*PLAT-\d+/);
    expect(got.run.status, got.text).toBe("success");
    expect(got.text).toContain("Upgrade EKS cluster to 1.30");

    // A payload steering each task to the other's tool: the agent refuses it as that task's client.
    const [searchGets, getSearches] = await Promise.all([
      ask("search", "show issue PLAT-1"),
      ask("get", "open issues in PLAT"),
    ]);
    expect(searchGets.text).toMatch(/Not allowed: triggers-search may not read with jira's get_issue/);
    expect(searchGets.text).not.toContain("Upgrade EKS cluster to 1.30");
    expect(getSearches.text).toMatch(/Not allowed: triggers-get may not read with jira's search_issues/);
    expect(getSearches.text).not.toMatch(/PLAT-\d+/);

    // Each client's token was asked for once and reused by its task's next run (cached per client).
    expect(idp.tokensIssuedTo("triggers-search")).toBe(1);
    expect(idp.tokensIssuedTo("triggers-get")).toBe(1);
    // Neither client's secret is in anything the runs said.
    const said = [searched, got, searchGets, getSearches].map(({ run, text }) => `${text}${run.error ?? ""}`);
    expect(said.join("")).not.toMatch(/search-secret|get-secret/);
  });

  it("a task naming a client whose variables are unset stops the service at start, naming them", async () => {
    const { SEARCH_CLIENT_SECRET: _unset, ...without } = receiverEnv;
    const failure = await startAgentProcess(packageDir, { env: without }).then(
      (child) => {
        void child.kill("SIGTERM");
        throw new Error("the receiver started without the task's client secret");
      },
      (error: Error) => error.message,
    );
    expect(failure).toMatch(
      /exited with code 1[\s\S]*task \\"search\\" acts as its own client, but SEARCH_CLIENT_SECRET is not set/,
    );
    expect(failure).not.toContain(TASK_CLIENTS.GET_CLIENT_SECRET);
  });

  it("a change the run asks for waits for the lead the policy names; nobody else's answer counts", async () => {
    const oncall = receivers.oncall as AgentProcess;
    const runId = await send(oncall, "file", JSON.stringify({ summary: "Rotate the payments cert" }));
    const waiting = await settled(oncall, "file", runId);
    expect(waiting.status).toBe("input-required");
    expect(waiting.confirmation?.question).toContain("Rotate the payments cert");
    expect(repliesIn(waiting)).toMatch(
      /waits for an approver the policy names, until .*Rotate the payments cert/s,
    );
    expect(filed("Rotate the payments cert")).toHaveLength(0);

    // No token, a forged one, and a person the policy does not name: refused, nothing filed, still waiting.
    expect((await decide(oncall, runId, "approve")).status).toBe(401);
    const forged = await decide(oncall, runId, "approve", `${tokens.lead?.slice(0, -4)}AAAA`);
    expect(forged.status).toBe(401);
    const mallory = await decide(oncall, runId, "approve", tokens.mallory);
    expect(mallory.status).toBe(403);
    expect(((await mallory.json()) as { error: string }).error).toMatch(/mallory may not approve or decline/);
    expect(filed("Rotate the payments cert")).toHaveLength(0);
    expect((await settled(oncall, "file", runId)).status).toBe("input-required");
    // The queue of waiting changes is seen from any replica.
    const metrics = await (await fetch(`${(receivers.other as AgentProcess).url}/metrics`)).text();
    expect(metrics).toMatch(/^switchboard_trigger_runs_waiting [1-9]/m);
    // The run history is not open to anyone without a token.
    expect((await fetch(`${oncall.url}/api/v1/runs`)).status).toBe(401);

    // The lead approves, from another replica: the change runs once; a second press finds nothing waiting.
    const approved = await decide(receivers.brief as AgentProcess, runId, "approve", tokens.lead);
    expect(approved.status, await approved.clone().text()).toBe(200);
    expect(await approved.json()).toEqual({ status: "success" });
    expect((await decide(oncall, runId, "approve", tokens.lead)).status).toBe(409);
    expect(filed("Rotate the payments cert")).toHaveLength(1);
    const done = await settled(oncall, "file", runId);
    expect(done.confirmation?.decided_by).toBe("lead");
    expect(repliesIn(done)).toMatch(/PLAT-\d+/);
  });

  it("a declined change does nothing", async () => {
    const oncall = receivers.oncall as AgentProcess;
    const runId = await send(oncall, "file", JSON.stringify({ summary: "Drop the audit table" }));
    expect((await settled(oncall, "file", runId)).status).toBe("input-required");
    const declined = await decide(oncall, runId, "decline", tokens.lead);
    expect(await declined.json()).toEqual({ status: "declined" });
    const run = await settled(oncall, "file", runId);
    expect(run.status).toBe("declined");
    expect(repliesIn(run)).toMatch(/declined; nothing was done/);
    expect(filed("Drop the audit table")).toHaveLength(0);
  });

  it("a change nobody answers expires, is reported, and an answer after it does nothing", async () => {
    const brief = receivers.brief as AgentProcess;
    const runId = await send(brief, "file", JSON.stringify({ summary: "Scale down the cluster" }));
    const run = await settled(brief, "file", runId, "expired");
    expect(run.error).toMatch(/CONFIRMATION_EXPIRY_SECONDS/);
    for (;;) {
      if (/expired unanswered; nothing was done/.test(repliesIn(run))) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const late = await decide(brief, runId, "approve", tokens.lead);
    expect(late.status).toBe(410);
    expect(filed("Scale down the cluster")).toHaveLength(0);
  });

  it("the web chat's Triggers page reads the history and answers a change with the signed-in user's own token", async () => {
    const oncall = receivers.oncall as AgentProcess;
    const runId = await send(oncall, "file", JSON.stringify({ summary: "Restart the ingest workers" }));
    expect((await settled(oncall, "file", runId)).status).toBe("input-required");
    const through = (path: string, init: RequestInit = {}) => fetch(`${web.url}/api/triggers${path}`, init);
    const as = (token: string | undefined) => ({
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    });
    expect((await through("/runs")).status).toBe(401);
    const history = (await (await through("/runs", { headers: as(tokens.lead) })).json()) as { runs: Run[] };
    expect(history.runs.find((run) => run.run_id === runId)?.status).toBe("input-required");
    const tasks = (await (await through("/tasks", { headers: as(tokens.lead) })).json()) as {
      tasks: { id: string; trigger: string }[];
    };
    expect(tasks.tasks.map((task) => task.id)).toEqual(["look", "file", "search", "get"]);
    // Only the history and decisions pass: a browser cannot send a delivery through the web chat.
    expect(
      (await through("/hooks/file", { method: "POST", headers: as(tokens.lead), body: "{}" })).status,
    ).toBe(404);
    const decide = (token: string | undefined) =>
      through(`/runs/${runId}/decision`, {
        method: "POST",
        headers: as(token),
        body: '{"decision":"approve"}',
      });
    expect((await decide(tokens.mallory)).status).toBe(403);
    expect(filed("Restart the ingest workers")).toHaveLength(0);
    const approved = await decide(tokens.lead);
    expect(await approved.json()).toEqual({ status: "success" });
    expect(filed("Restart the ingest workers")).toHaveLength(1);
  });
});
