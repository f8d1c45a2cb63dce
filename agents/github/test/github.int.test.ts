import { randomUUID } from "node:crypto";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { connectAgent } from "@switchboard/a2a-client/client";
import { type FakeGithub, startFakeGithub } from "@switchboard-testing/fake-github/server";
import { freePort } from "@switchboard-testing/test-agents/ports";
import { type AgentProcess, startAgentProcess } from "@switchboard-testing/test-agents/process";
import { streamTranscript } from "@switchboard-testing/test-agents/transcript";
import {
  callTool,
  recallUserMessages,
  replyFromToolResult,
  say,
} from "@switchboard-testing/test-llm/replies";
import { rules } from "@switchboard-testing/test-llm/rules";
import { type ScriptedLlm, startScriptedLlm } from "@switchboard-testing/test-llm/server";
import { testMongoEnv, testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo/inject";
import { MongoClient } from "mongodb";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");

describe("GitHub agent over A2A", () => {
  const dbName = uniqueDbName("github");
  let llm: ScriptedLlm;
  let github: FakeGithub;
  let mongo: MongoClient;
  const agents: AgentProcess[] = [];

  const start = async (overrides: Record<string, string | undefined> = {}) => {
    const agent = await startAgentProcess(packageDir, {
      env: {
        ...testMongoEnv(dbName),
        ...llm.env,
        GITHUB_API_URL: github.url,
        GITHUB_PERSONAL_ACCESS_TOKEN: github.token,
        ...overrides,
      },
    });
    agents.push(agent);
    return agent;
  };

  beforeAll(async () => {
    [llm, github, mongo] = await Promise.all([
      startScriptedLlm({
        script: rules(
          [
            {
              lastUser: /open pull requests in ([\w-]+\/[\w-]+)/,
              reply: (_r, { match }) => callTool("list_pull_requests", { repo: match?.[1] }),
            },
            {
              lastUser: /status of PR (\d+) in ([\w-]+\/[\w-]+)/,
              reply: (_r, { match }) =>
                callTool("get_pull_request", { repo: match?.[2], number: Number(match?.[1]) }),
            },
            {
              lastUser: /open issues in ([\w-]+\/[\w-]+)/,
              reply: (_r, { match }) => callTool("list_issues", { repo: match?.[1] }),
            },
            {
              lastUser: /failed runs in ([\w-]+\/[\w-]+) on ([\w/-]+)/,
              reply: (_r, { match }) =>
                callTool("list_workflow_runs", { repo: match?.[1], status: "failure", branch: match?.[2] }),
            },
            {
              lastUser: /create an issue in ([\w-]+\/[\w-]+): (.+)/,
              reply: (_r, { match }) => callTool("create_issue", { repo: match?.[1], title: match?.[2] }),
            },
            {
              lastUser: /open a PR in ([\w-]+\/[\w-]+) from ([\w/-]+): (.+)/,
              reply: (_r, { match }) =>
                callTool("create_pull_request", { repo: match?.[1], head: match?.[2], title: match?.[3] }),
            },
            {
              lastUser: /what did I ask/,
              reply: recallUserMessages(),
            },
            { afterTool: true, reply: replyFromToolResult() },
          ],
          say("I can read and change GitHub repositories, pull requests, issues and runs."),
        ),
      }),
      startFakeGithub(),
      MongoClient.connect(testMongoUri()),
    ]);
  });
  afterEach(async () => {
    await Promise.all(agents.splice(0).map((agent) => agent.kill("SIGTERM")));
  });
  afterAll(async () => {
    await mongo.db(dbName).dropDatabase();
    await Promise.all([mongo.close(), llm.close(), github.close()]);
  });

  it("publishes a card with its skills at its contract-shaped URL, without calling GitHub", async () => {
    const before = github.requests.length;
    const agent = await start();
    const connection = await connectAgent(agent.url);
    expect(connection.card).toMatchObject({ name: "github", streaming: true });
    expect(connection.card.skills.map((skill) => skill.id)).toEqual([
      "github_repositories",
      "github_changes",
    ]);
    expect(connection.card.url).toBe(`http://localhost:${agent.port}/`);
    expect(github.requests).toHaveLength(before);
  });

  it("answers from GitHub Enterprise's /api/v3 through a read tool, and remembers the conversation in checkpoints_github", async () => {
    const connection = await connectAgent((await start()).url);
    const contextId = `github-${randomUUID()}`;
    const first = await connection.send({ text: "open pull requests in acme/platform-api", contextId });
    expect(first.state).toBe("completed");
    expect(first.text).toMatch(
      /#2 \[open\] Add rate limiting middleware \(mona, feature\/rate-limit → main, updated \d{4}-\d\d-\d\d\) http:\/\/127\.0\.0\.1:\d+\/acme\/platform-api\/pull\/2/,
    );
    expect(first.text).not.toContain("Fix flaky CI");
    expect(first.text).not.toContain('"node_id"');
    const call = github.requests.find((request) => request.path === "/api/v3/repos/acme/platform-api/pulls");
    expect(call).toMatchObject({ method: "GET", status: 200, query: { state: "open" } });
    expect(["token", "bearer"]).toContain(call?.auth);

    const second = await connection.send({ text: "what did I ask before?", contextId });
    expect(second.text).toContain("open pull requests in acme/platform-api");
    expect(
      await mongo.db(dbName).collection("checkpoints_github").countDocuments({ thread_id: contextId }),
    ).toBeGreaterThan(0);
  });

  it("lists issues without the pull requests GitHub's issues endpoint mixes in", async () => {
    const connection = await connectAgent((await start()).url);
    const result = await connection.send({
      text: "open issues in acme/platform-api",
      contextId: `github-${randomUUID()}`,
    });
    expect(result.text).toMatch(
      /#1 \[open\] Rate limit the public API \(mona, updated [\d-]+, labels: enhancement\)/,
    );
    expect(result.text).toMatch(/#5 \[open\] Audit log entries lack the actor \(.*assigned: octo-dev\)/);
    expect(result.text).not.toMatch(/#2 |#3 /);
  });

  it("lists failed workflow runs on a branch", async () => {
    const connection = await connectAgent((await start()).url);
    const result = await connection.send({
      text: "failed runs in acme/platform-api on fix/flaky-ci",
      contextId: `github-${randomUUID()}`,
    });
    expect(result.text).toMatch(
      /#\d+ \[failure\] on fix\/flaky-ci\b.*\(pull_request, by octo-dev, 2025-02-14, run id \d+\)/,
    );
    expect(result.text).not.toContain("[success]");
    expect(result.text.split("\n").filter((line) => line.includes("[failure]"))).toHaveLength(1);
  });

  it("asks before creating an issue; after a SIGKILL and restart, approval creates it exactly once", async () => {
    let agent = await start();
    let connection = await connectAgent(agent.url);
    const contextId = `github-${randomUUID()}`;
    const before = github.issues.length;
    const asked = await connection.send({
      text: "create an issue in acme/infra: Rotate the deploy key",
      contextId,
    });
    expect(asked.state).toBe("input-required");
    expect(asked.question).toContain('Create an issue in acme/infra: "Rotate the deploy key"');
    expect(github.issues).toHaveLength(before);

    await agent.kill("SIGKILL");
    agent = await start();
    connection = await connectAgent(agent.url);
    const approved = await connection.send({ text: "yes", contextId, taskId: asked.taskId });
    expect(approved.state).toBe("completed");
    const created = github.issues.filter((issue) => issue.title === "Rotate the deploy key");
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ repo: "acme/infra", user: "octo-dev", pull: null });
    expect(approved.text).toContain(
      `Created issue #${created[0]?.number} in acme/infra: Rotate the deploy key`,
    );
    expect(github.issues).toHaveLength(before + 1);
  });

  it("creates nothing when the user declines", async () => {
    const connection = await connectAgent((await start()).url);
    const contextId = `github-${randomUUID()}`;
    const before = github.issues.length;
    const asked = await connection.send({
      text: "create an issue in acme/infra: Delete all volumes",
      contextId,
    });
    expect(asked.state).toBe("input-required");
    const declined = await connection.send({ text: "no", contextId, taskId: asked.taskId });
    expect(declined.state).toBe("completed");
    expect(github.issues).toHaveLength(before);
    expect(github.issues.some((issue) => issue.title === "Delete all volumes")).toBe(false);
  });

  it("opens a pull request into the default branch after confirmation, and shows GitHub's 422 readably", async () => {
    const connection = await connectAgent((await start()).url);
    const contextId = `github-${randomUUID()}`;
    const asked = await connection.send({
      text: "open a PR in acme/platform-api from feature/audit-log: Add actor to audit log",
      contextId,
    });
    expect(asked.question).toContain(
      'Open a pull request in acme/platform-api from feature/audit-log into the default branch: "Add actor to audit log"',
    );
    const approved = await connection.send({ text: "yes", contextId, taskId: asked.taskId });
    expect(approved.text).toMatch(
      /Opened pull request #\d+ in acme\/platform-api: Add actor to audit log \(feature\/audit-log → main\)/,
    );
    expect(github.issues.filter((issue) => issue.pull?.head === "feature/audit-log")).toHaveLength(1);

    const again = await connection.send({
      text: "open a PR in acme/platform-api from feature/audit-log: Same again",
      contextId,
    });
    const rejected = await connection.send({ text: "yes", contextId, taskId: again.taskId });
    expect(rejected.state).toBe("completed");
    expect(rejected.text).toContain(
      "HTTP 422 Validation Failed): A pull request already exists for acme:feature/audit-log.",
    );
    expect(github.issues.filter((issue) => issue.pull?.head === "feature/audit-log")).toHaveLength(1);
  });

  it("lets the model see a 404 as a readable message", async () => {
    const connection = await connectAgent((await start()).url);
    const result = await connection.send({
      text: "open pull requests in acme/nope",
      contextId: `github-${randomUUID()}`,
    });
    expect(result.state).toBe("completed");
    expect(result.text).toContain(
      "list_pull_requests failed: GitHub answered 404 Not Found for GET /repos/acme/nope/pulls",
    );
  });

  it("fails the task naming the missing token", async () => {
    const connection = await connectAgent((await start({ GITHUB_PERSONAL_ACCESS_TOKEN: "" })).url);
    const result = await connection.send({
      text: "open pull requests in acme/infra",
      contextId: `github-${randomUUID()}`,
    });
    expect(result.state).toBe("failed");
    expect(result.text).toContain("set GITHUB_PERSONAL_ACCESS_TOKEN");
    expect(result.text).not.toContain(github.token);
  });

  it("fails the task naming the token variable when GitHub refuses it, without echoing it", async () => {
    const wrong = "ghp_wrong_token_0123456789";
    const agent = await start({ GITHUB_PERSONAL_ACCESS_TOKEN: wrong });
    const connection = await connectAgent(agent.url);
    const before = github.requests.length;
    const result = await connection.send({
      text: "open pull requests in acme/infra",
      contextId: `github-${randomUUID()}`,
    });
    expect(result.state).toBe("failed");
    expect(result.text).toContain("HTTP 401 Bad credentials");
    expect(result.text).toContain("check GITHUB_PERSONAL_ACCESS_TOKEN");
    expect(result.text).not.toContain(wrong);
    expect(agent.logs()).not.toContain(wrong);
    // 401 is final: no retry against it.
    expect(github.requests.slice(before).filter((request) => request.status === 401)).toHaveLength(1);
  });

  it("names GITHUB_API_URL when GitHub cannot be reached, within seconds", async () => {
    const apiUrl = `http://127.0.0.1:${await freePort()}/api/v3`; // nothing listens there
    const connection = await connectAgent((await start({ GITHUB_API_URL: apiUrl })).url);
    const started = Date.now();
    const result = await connection.send({
      text: "open pull requests in acme/infra",
      contextId: `github-${randomUUID()}`,
    });
    expect(result.text).toContain(`Cannot reach GitHub at ${apiUrl} (ECONNREFUSED): check GITHUB_API_URL`);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("streams the tool call as a status update before the final answer", async () => {
    const connection = await connectAgent((await start()).url);
    const kinds = await streamTranscript(connection, {
      text: "status of PR 2 in acme/platform-api",
      contextId: `github-${randomUUID()}`,
    });
    const toolCall = kinds.indexOf("status:working:Calling get_pull_request");
    expect(toolCall).toBeGreaterThan(-1);
    expect(kinds.indexOf("answer")).toBeGreaterThan(toolCall);
    expect(kinds.at(-1)).toMatch(/^status:completed:.*#2: Add rate limiting middleware/);
    expect(kinds.at(-1)).toMatch(/State: open · Author: mona · feature\/rate-limit → main/);
  });
});
