import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { connectAgent } from "@switchboard/a2a-client";
import { agentConformance } from "@switchboard-testing/agent-conformance";
import { startFakeGithub } from "@switchboard-testing/fake-github";
import { freePort } from "@switchboard-testing/test-agents";
import { callTool } from "@switchboard-testing/test-llm";
import { describe, expect, it } from "vitest";

const agent = agentConformance({
  name: "github",
  packageDir: join(dirname(fileURLToPath(import.meta.url)), ".."),
  skills: ["github_repositories", "github_changes"],
  service: {
    start: () => startFakeGithub(),
    env: (github) => ({ GITHUB_API_URL: github.url, GITHUB_PERSONAL_ACCESS_TOKEN: github.token }),
    requests: (github) => github.requests.length,
  },
  llmRules: [
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
  ],
  fallback: "I can read and change GitHub repositories, pull requests, issues and runs.",
  read: {
    // GitHub Enterprise's /api/v3, through a read tool, formatted without GitHub's raw JSON.
    prompt: "open pull requests in acme/platform-api",
    answer:
      /#2 \[open\] Add rate limiting middleware \(mona, feature\/rate-limit → main, updated \d{4}-\d\d-\d\d\) http:\/\/127\.0\.0\.1:\d+\/acme\/platform-api\/pull\/2/,
    check: (github) => {
      const call = github.requests.find(
        (request) => request.path === "/api/v3/repos/acme/platform-api/pulls",
      );
      expect(call).toMatchObject({ method: "GET", status: 200, query: { state: "open" } });
      expect(["token", "bearer"]).toContain(call?.auth);
    },
  },
  change: {
    prompt: "create an issue in acme/infra: Rotate the deploy key",
    question: 'Create an issue in acme/infra: "Rotate the deploy key"',
    applied: (github) => github.issues,
    check: (_github, answer, created) => {
      expect(created).toMatchObject({
        title: "Rotate the deploy key",
        repo: "acme/infra",
        user: "octo-dev",
        pull: null,
      });
      expect(answer).toContain(`Created issue #${created?.number} in acme/infra: Rotate the deploy key`);
    },
  },
  decline: {
    prompt: "create an issue in acme/infra: Delete all volumes",
    check: (github) => {
      expect(github.issues.some((issue) => issue.title === "Delete all volumes")).toBe(false);
    },
  },
  credentials: { variable: "GITHUB_PERSONAL_ACCESS_TOKEN", prompt: "open pull requests in acme/infra" },
  streaming: {
    prompt: "status of PR 2 in acme/platform-api",
    tool: "get_pull_request",
    answer: ["#2: Add rate limiting middleware", /State: open · Author: mona · feature\/rate-limit → main/],
  },
});

describe("GitHub agent: formatting and GitHub's errors", () => {
  it("leaves closed pull requests and GitHub's raw JSON out of the list", async () => {
    const result = await agent.ask("open pull requests in acme/platform-api");
    expect(result.text).toContain("#2 [open] Add rate limiting middleware");
    expect(result.text).not.toContain("Fix flaky CI");
    expect(result.text).not.toContain('"node_id"');
  });

  it("lists issues without the pull requests GitHub's issues endpoint mixes in", async () => {
    const result = await agent.ask("open issues in acme/platform-api");
    expect(result.text).toMatch(
      /#1 \[open\] Rate limit the public API \(mona, updated [\d-]+, labels: enhancement\)/,
    );
    expect(result.text).toMatch(/#5 \[open\] Audit log entries lack the actor \(.*assigned: octo-dev\)/);
    expect(result.text).not.toMatch(/#2 |#3 /);
  });

  it("lists failed workflow runs on a branch", async () => {
    const result = await agent.ask("failed runs in acme/platform-api on fix/flaky-ci");
    expect(result.text).toMatch(
      /#\d+ \[failure\] on fix\/flaky-ci\b.*\(pull_request, by octo-dev, 2025-02-14, run id \d+\)/,
    );
    expect(result.text).not.toContain("[success]");
    expect(result.text.split("\n").filter((line) => line.includes("[failure]"))).toHaveLength(1);
  });

  it("opens a pull request into the default branch after confirmation, and shows GitHub's 422 readably", async () => {
    const connection = await agent.connect();
    const contextId = agent.contextId();
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
    expect(agent.service.issues.filter((issue) => issue.pull?.head === "feature/audit-log")).toHaveLength(1);

    const again = await connection.send({
      text: "open a PR in acme/platform-api from feature/audit-log: Same again",
      contextId,
    });
    const rejected = await connection.send({ text: "yes", contextId, taskId: again.taskId });
    expect(rejected.state).toBe("completed");
    expect(rejected.text).toContain(
      "HTTP 422 to POST /repos/acme/platform-api/pulls: Validation Failed: A pull request already exists for acme:feature/audit-log.",
    );
    expect(agent.service.issues.filter((issue) => issue.pull?.head === "feature/audit-log")).toHaveLength(1);
  });

  it("lets the model see a 404 as a readable message", async () => {
    const result = await agent.ask("open pull requests in acme/nope");
    expect(result.state).toBe("completed");
    expect(result.text).toContain(
      "list_pull_requests failed: GitHub answered 404 Not Found for GET /repos/acme/nope/pulls",
    );
  });

  it("fails the task naming the token variable when GitHub refuses it, without echoing it", async () => {
    const wrong = "ghp_wrong_token_0123456789";
    const started = await agent.start({ GITHUB_PERSONAL_ACCESS_TOKEN: wrong });
    const connection = await connectAgent(started.url);
    const before = agent.service.requests.length;
    const result = await connection.send({
      text: "open pull requests in acme/infra",
      contextId: agent.contextId(),
    });
    expect(result.state).toBe("failed");
    expect(result.text).toContain("HTTP 401: Bad credentials");
    expect(result.text).toContain("check GITHUB_PERSONAL_ACCESS_TOKEN");
    expect(result.text).not.toContain(wrong);
    expect(started.logs()).not.toContain(wrong);
    // 401 is final: no retry against it.
    expect(agent.service.requests.slice(before).filter((request) => request.status === 401)).toHaveLength(1);
  });

  it("names GITHUB_API_URL when GitHub cannot be reached, within seconds", async () => {
    const apiUrl = `http://127.0.0.1:${await freePort()}/api/v3`; // nothing listens there
    const connection = await agent.connect({ GITHUB_API_URL: apiUrl });
    const started = Date.now();
    const result = await connection.send({
      text: "open pull requests in acme/infra",
      contextId: agent.contextId(),
    });
    expect(result.text).toContain(`Cannot reach GitHub at ${apiUrl} (ECONNREFUSED): check GITHUB_API_URL`);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
