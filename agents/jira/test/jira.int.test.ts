import { randomUUID } from "node:crypto";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { connectAgent } from "@switchboard/a2a-client/client";
import { type FakeJira, startFakeJira } from "@switchboard-testing/fake-jira/server";
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
import { runPythonA2aClient } from "@switchboard-testing/test-python/a2a-client";
import { MongoClient } from "mongodb";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");

describe("Jira agent over A2A", () => {
  const dbName = uniqueDbName("jira");
  let llm: ScriptedLlm;
  let jira: FakeJira;
  let mongo: MongoClient;
  const agents: AgentProcess[] = [];

  const start = async (overrides: Record<string, string | undefined> = {}) => {
    const agent = await startAgentProcess(packageDir, {
      env: {
        ...testMongoEnv(dbName),
        ...llm.env,
        ATLASSIAN_API_URL: jira.url,
        ATLASSIAN_EMAIL: jira.email,
        ATLASSIAN_TOKEN: jira.token,
        ...overrides,
      },
    });
    agents.push(agent);
    return agent;
  };

  beforeAll(async () => {
    [llm, jira, mongo] = await Promise.all([
      startScriptedLlm({
        script: rules(
          [
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
            {
              lastUser: /what did I ask/,
              reply: recallUserMessages(),
            },
            { afterTool: true, reply: replyFromToolResult() },
          ],
          say("I can search, read and change Jira issues."),
        ),
      }),
      startFakeJira(),
      MongoClient.connect(testMongoUri()),
    ]);
  });
  afterEach(async () => {
    await Promise.all(agents.splice(0).map((agent) => agent.kill("SIGTERM")));
  });
  afterAll(async () => {
    await mongo.db(dbName).dropDatabase();
    await Promise.all([mongo.close(), llm.close(), jira.close()]);
  });

  it("publishes a card with its skills at its contract-shaped URL", async () => {
    const agent = await start();
    const connection = await connectAgent(agent.url);
    expect(connection.card).toMatchObject({ name: "jira", streaming: true });
    expect(connection.card.skills.map((skill) => skill.id)).toEqual(["jira_issues", "jira_changes"]);
    expect(connection.card.url).toBe(`http://localhost:${agent.port}/`);
  });

  it("answers from Jira through a read tool, and remembers the conversation in checkpoints_jira", async () => {
    const connection = await connectAgent((await start()).url);
    const contextId = `jira-${randomUUID()}`;
    const first = await connection.send({ text: "open issues in PLAT", contextId });
    expect(first.state).toBe("completed");
    expect(first.text).toMatch(/PLAT-1 \[In Progress\] Upgrade EKS cluster to 1\.30/);
    expect(jira.requests.some((request) => request.path === "/rest/api/3/search/jql")).toBe(true);

    const second = await connection.send({ text: "what did I ask before?", contextId });
    expect(second.text).toContain("open issues in PLAT");
    expect(
      await mongo.db(dbName).collection("checkpoints_jira").countDocuments({ thread_id: contextId }),
    ).toBeGreaterThan(0);
  });

  it("asks before creating an issue; after a SIGKILL and restart, approval creates it exactly once", async () => {
    let agent = await start();
    let connection = await connectAgent(agent.url);
    const contextId = `jira-${randomUUID()}`;
    const before = jira.issues.length;
    const asked = await connection.send({
      text: "create a bug in OPS: disk full on build agents",
      contextId,
    });
    expect(asked.state).toBe("input-required");
    expect(asked.question).toContain('Create a Jira Bug in OPS: "disk full on build agents"');
    expect(jira.issues).toHaveLength(before);

    await agent.kill("SIGKILL");
    agent = await start();
    connection = await connectAgent(agent.url);
    const approved = await connection.send({ text: "yes", contextId, taskId: asked.taskId });
    expect(approved.state).toBe("completed");
    const created = jira.issues.filter((issue) => issue.summary === "disk full on build agents");
    expect(created).toHaveLength(1);
    expect(approved.text).toContain(`Created ${created[0]?.key}`);
    expect(jira.issues).toHaveLength(before + 1);
  });

  it("creates nothing when the user declines", async () => {
    const connection = await connectAgent((await start()).url);
    const contextId = `jira-${randomUUID()}`;
    const before = jira.issues.length;
    const asked = await connection.send({ text: "create a bug in OPS: flaky test", contextId });
    const declined = await connection.send({ text: "no", contextId, taskId: asked.taskId });
    expect(declined.state).toBe("completed");
    expect(jira.issues).toHaveLength(before);
    expect(
      jira.requests.filter((request) => request.method === "POST" && request.path === "/rest/api/3/issue"),
    ).toHaveLength(
      jira.requests.filter(
        (request) =>
          request.method === "POST" && request.path === "/rest/api/3/issue" && request.status === 201,
      ).length,
    );
  });

  it("fails the task naming the missing credential", async () => {
    const connection = await connectAgent((await start({ ATLASSIAN_TOKEN: "" })).url);
    const result = await connection.send({ text: "open issues in PLAT", contextId: `jira-${randomUUID()}` });
    expect(result.state).toBe("failed");
    expect(result.text).toContain("set ATLASSIAN_TOKEN");
    expect(result.text).not.toContain(jira.token);
  });

  it("streams the tool call as a status update before the final answer", async () => {
    const connection = await connectAgent((await start()).url);
    const kinds = await streamTranscript(connection, {
      text: "status of PLAT-2",
      contextId: `jira-${randomUUID()}`,
    });
    const toolCall = kinds.indexOf("status:working:Calling get_issue");
    expect(toolCall).toBeGreaterThan(-1);
    expect(kinds.indexOf("answer")).toBeGreaterThan(toolCall);
    expect(kinds.at(-1)).toMatch(/^status:completed:.*PLAT-2/);
  });

  it("answers CAIPE's Python a2a-sdk 0.3 client over message/send", async () => {
    const agent = await start();
    const contextId = `caipe-${randomUUID()}`;
    const result = await runPythonA2aClient({ url: agent.url, text: "open issues in OPS", contextId });
    expect(result.contextId).toBe(contextId);
    expect(result.state).toBe("completed");
    expect(result.text).toContain("OPS-1");
  });
});
