import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { agentConformance } from "@switchboard-testing/agent-conformance";
import { startFakeGitLab } from "@switchboard-testing/fake-vendors";
import { callTool } from "@switchboard-testing/test-llm";
import { expect, it } from "vitest";

// The conformance suite against the fake GitLab REST API v4, which the agent reaches through the
// real @gitbeaker/rest client; this agent's own cases follow it.
const agent = agentConformance({
  name: "gitlab",
  packageDir: join(dirname(fileURLToPath(import.meta.url)), ".."),
  skills: ["gitlab_projects", "gitlab_changes"],
  description: "merge requests",
  service: {
    start: () => startFakeGitLab(),
    // A whole URL in GITLAB_HOST: the fake speaks plain HTTP on loopback.
    env: (gl) => ({ GITLAB_HOST: gl.url, GITLAB_TOKEN: gl.token }),
    requests: (gl) => gl.requests.length,
  },
  llmRules: [
    {
      lastUser: /^open merge requests in (\S+)$/i,
      reply: (_r, { match }) => callTool("list_merge_requests", { project: match?.[1] }),
    },
    {
      lastUser: /^failed pipelines in (\S+)$/i,
      reply: (_r, { match }) => callTool("list_pipelines", { project: match?.[1], status: "failed" }),
    },
    {
      lastUser: /^projects matching (\S+)$/i,
      reply: (_r, { match }) => callTool("list_projects", { search: match?.[1] }),
    },
    {
      lastUser: /^open an MR in (\S+) from (\S+): (.+)$/i,
      reply: (_r, { match }) =>
        callTool("create_merge_request", {
          project: match?.[1],
          source_branch: match?.[2],
          title: match?.[3],
        }),
    },
    {
      lastUser: /^file an issue in (\S+): (.+)$/i,
      reply: (_r, { match }) => callTool("create_issue", { project: match?.[1], title: match?.[2] }),
    },
    {
      lastUser: /^retry pipeline (\d+) in (\S+)$/i,
      reply: (_r, { match }) =>
        callTool("retry_pipeline", { project: match?.[2], pipeline_id: Number(match?.[1]) }),
    },
  ],
  fallback: "I can read GitLab projects, merge requests and pipelines, and change them after asking.",
  read: {
    prompt: "open merge requests in platform/deploy-tools",
    answer: /!1 \[opened\] Lint Helm charts in CI \(feature\/helm-lint → main, by dana, updated [\d-]+\)/,
    check: (gl) => {
      const list = gl.requests.find((request) => request.path.endsWith("/merge_requests"));
      expect(list?.path).toBe("/api/v4/projects/platform%2Fdeploy-tools/merge_requests");
      expect(list?.query.get("state")).toBe("opened");
    },
  },
  change: {
    prompt: "open an MR in platform/deploy-tools from fix/timeout: Raise the deploy timeout",
    question:
      'Open a merge request in platform/deploy-tools from fix/timeout into the default branch: "Raise the deploy timeout"',
    applied: (gl) => gl.changes,
    answer: /Opened merge request !3 \[opened\] Raise the deploy timeout \(fix\/timeout → main/,
    checkPending: (gl) => expect(gl.changes).toHaveLength(0),
    check: (gl, _answer, change) => {
      expect(change).toEqual({ action: "create_merge_request", project: "platform/deploy-tools", ref: 3 });
      expect(gl.state.mergeRequests.at(-1)).toMatchObject({ target_branch: "main", state: "opened" });
    },
  },
  decline: {
    prompt: "file an issue in platform/infra-live: drift in prod VPC",
    question: 'Create an issue in platform/infra-live: "drift in prod VPC"',
    check: (gl) => expect(gl.state.issues).toHaveLength(0),
  },
  credentials: { variable: "GITLAB_TOKEN" },
  streaming: {
    prompt: "failed pipelines in platform/deploy-tools",
    tool: "list_pipelines",
    answer: "pipeline 903 [failed]",
  },
  pythonPeer: { prompt: "projects matching infra", answer: "platform/infra-live" },
});

it("retries a failed pipeline after the user approves, and reports GitLab's refusal for a green one", async () => {
  const connection = await agent.connect();
  const contextId = agent.contextId();
  const asked = await connection.send({ text: "retry pipeline 903 in platform/deploy-tools", contextId });
  expect(asked.question).toContain("Retry pipeline 903 in platform/deploy-tools.");
  const done = await connection.send({ text: "yes", contextId, taskId: asked.taskId });
  expect(done.text).toContain("Retried pipeline 903 [running] on fix/timeout");

  const again = await connection.send({ text: "retry pipeline 902 in platform/deploy-tools", contextId });
  const refused = await connection.send({ text: "yes", contextId, taskId: again.taskId });
  expect(refused.text).toContain("GitLab answered HTTP 403: 403 Forbidden");
  expect(agent.service.state.pipelines.find((one) => one.id === 902)?.status).toBe("success");
});

it("accepts the token under GITLAB_PERSONAL_ACCESS_TOKEN, CAIPE's other name for it", async () => {
  const { text } = await agent.ask("projects matching deploy", {
    GITLAB_TOKEN: undefined,
    GITLAB_PERSONAL_ACCESS_TOKEN: agent.service.token,
  });
  expect(text).toContain("platform/deploy-tools (id 11, default branch main)");
});

it("fails the task naming GITLAB_TOKEN when GitLab refuses the token, without echoing it", async () => {
  const wrong = "glpat-wrong-token-0123456789";
  const result = await agent.ask("open merge requests in platform/deploy-tools", { GITLAB_TOKEN: wrong });
  expect(result.state).toBe("failed");
  expect(result.text).toContain("GitLab refused the credentials (HTTP 401");
  expect(result.text).toContain("check GITLAB_TOKEN");
  expect(result.text).not.toContain(wrong);
});
