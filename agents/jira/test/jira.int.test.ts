import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { agentConformance } from "@switchboard-testing/agent-conformance";
import { type FakeJira, startFakeJira } from "@switchboard-testing/fake-jira";
import { callTool } from "@switchboard-testing/test-llm";
import { expect } from "vitest";

const createdIssue = (jira: FakeJira) =>
  jira.requests.filter((request) => request.method === "POST" && request.path === "/rest/api/3/issue");

agentConformance({
  name: "jira",
  packageDir: join(dirname(fileURLToPath(import.meta.url)), ".."),
  skills: ["jira_issues", "jira_changes"],
  service: {
    start: () => startFakeJira(),
    env: (jira) => ({
      ATLASSIAN_API_URL: jira.url,
      ATLASSIAN_EMAIL: jira.email,
      ATLASSIAN_TOKEN: jira.token,
    }),
  },
  llmRules: [
    {
      lastUser: /\b([A-Z]+-\d+)\b.*status|status of ([A-Z]+-\d+)/,
      reply: (_r, { match }) => callTool("get_issue", { key: match?.[1] ?? match?.[2] }),
    },
    {
      lastUser: /open issues in ([A-Z]+)/,
      reply: (_r, { match }) =>
        callTool("search_issues", {
          jql: `project = ${match?.[1]} AND statusCategory != Done ORDER BY updated DESC`,
        }),
    },
    {
      lastUser: /create a bug in ([A-Z]+): (.+)/,
      reply: (_r, { match }) =>
        callTool("create_issue", { project: match?.[1], summary: match?.[2], issue_type: "Bug" }),
    },
  ],
  fallback: "I can search, read and change Jira issues.",
  read: {
    prompt: "open issues in PLAT",
    answer: /PLAT-1 \[In Progress\] Upgrade EKS cluster to 1\.30/,
    check: (jira) => {
      expect(jira.requests.some((request) => request.path === "/rest/api/3/search/jql")).toBe(true);
    },
  },
  change: {
    prompt: "create a bug in OPS: disk full on build agents",
    question: 'Create a Jira Bug in OPS: "disk full on build agents"',
    applied: (jira) => jira.issues,
    // Read after the approval: the key Jira gave the new issue.
    answer: (jira) => `Created ${jira.issues.at(-1)?.key}`,
    check: (_jira, _answer, created) =>
      expect(created).toMatchObject({
        projectKey: "OPS",
        summary: "disk full on build agents",
        issueType: "Bug",
      }),
  },
  decline: {
    prompt: "create a bug in OPS: flaky test",
    check: (jira) => {
      // No create call went out, or none that Jira accepted.
      expect(createdIssue(jira)).toHaveLength(
        createdIssue(jira).filter((request) => request.status === 201).length,
      );
    },
  },
  credentials: { variable: "ATLASSIAN_TOKEN" },
  streaming: { prompt: "status of PLAT-2", tool: "get_issue", answer: "PLAT-2" },
  pythonPeer: { prompt: "open issues in OPS", answer: "OPS-1" },
  // Azure speaks OpenAI's protocol, which every other case here uses.
  providers: ["anthropic-claude", "aws-bedrock", "google-gemini", "ollama"],
});
