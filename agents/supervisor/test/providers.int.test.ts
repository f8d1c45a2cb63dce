import { randomUUID } from "node:crypto";
import { connectAgent } from "@switchboard/a2a-client";
import { type FakeJira, startFakeJira } from "@switchboard-testing/fake-jira";
import { type AgentProcess, freePort } from "@switchboard-testing/test-agents";
import {
  callTool,
  isSummaryRequest,
  offeredToolNames,
  type ProviderName,
  replyFromToolResult,
  routeByAgentPrefix,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
  summarizeMatches,
} from "@switchboard-testing/test-llm";
import { testMongoEnv, testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAgent } from "./fleet.js";

// The supervisor's routing over each LLM provider's own protocol (the Jira agent behind it stays on
// OpenAI's; the conformance suite runs it over every provider): a hop to Jira, and a summary once the
// conversation outgrows a small budget, every supervisor request in that provider's dialect.

const PROVIDERS: [ProviderName, string][] = [
  ["anthropic-claude", "anthropic"],
  ["aws-bedrock", "bedrock"],
  ["google-gemini", "gemini"],
  ["ollama", "ollama"],
];

const script = rules(
  [
    { test: isSummaryRequest, reply: summarizeMatches(/open issues in [A-Z]+/) },
    ...routeByAgentPrefix(),
    {
      lastUser: /open issues in ([A-Z]+)/,
      reply: (_r, { match }) => callTool("search_issues", { jql: `project = ${match?.[1]}` }),
    },
    { afterTool: true, reply: replyFromToolResult() },
  ],
  say("No rule for this."),
);

describe("the supervisor over every LLM provider", () => {
  const dbName = uniqueDbName("supervisor_providers");
  let llm: ScriptedLlm;
  // The supervisor's own model server when one env serves the fleet (SUPERVISOR_LLM_PROVIDER, …).
  let routingLlm: ScriptedLlm;
  let fleetEnv: Record<string, string>;
  let jira: FakeJira;
  let mongo: MongoClient;
  let jiraAgent: AgentProcess;
  let jiraPort: number;
  let supervisorPort: number;

  beforeAll(async () => {
    [llm, routingLlm, jira, mongo, jiraPort, supervisorPort] = await Promise.all([
      startScriptedLlm({ script }),
      startScriptedLlm({ script }),
      startFakeJira(),
      MongoClient.connect(testMongoUri()),
      freePort(),
      freePort(),
    ]);
    // One env file for the whole fleet, as a user writes it: OpenAI for every agent, and for the
    // supervisor alone a small Gemini model on a model server of its own.
    const supervisorOnly = Object.entries(routingLlm.envFor("google-gemini", "gemini-2.5-flash-lite")).map(
      ([name, value]) => [`SUPERVISOR_${name}`, value],
    );
    fleetEnv = {
      ...testMongoEnv(dbName),
      ...llm.env,
      ...Object.fromEntries(supervisorOnly),
      ATLASSIAN_API_URL: jira.url,
      ATLASSIAN_EMAIL: jira.email,
      ATLASSIAN_TOKEN: jira.token,
      ENABLE_JIRA: "true",
      JIRA_AGENT_URL: `http://127.0.0.1:${jiraPort}`,
      ENABLE_WEATHER: "false",
    };
    jiraAgent = await startAgent("jira", jiraPort, fleetEnv);
  });
  afterAll(async () => {
    await jiraAgent?.kill("SIGTERM");
    await mongo.db(dbName).dropDatabase();
    await Promise.all([mongo.close(), llm.close(), routingLlm.close(), jira.close()]);
  });

  it("gives the supervisor its own provider and model from the fleet's one env (SUPERVISOR_LLM_PROVIDER)", async () => {
    const from = llm.calls.length;
    const supervisor = await startAgent("supervisor", supervisorPort, fleetEnv);
    try {
      const connection = await connectAgent(`http://127.0.0.1:${supervisorPort}`);
      const answer = await connection.send({
        text: "jira: open issues in PLAT",
        contextId: `per-agent-${randomUUID()}`,
      });
      expect(answer.state).toBe("completed");
      expect(answer.text).toMatch(/PLAT-1 \[In Progress\]/);

      // The supervisor's model server saw the routing, in Gemini's protocol, for the supervisor's model.
      expect(routingLlm.calls.length).toBeGreaterThanOrEqual(2);
      expect(routingLlm.calls.every((call) => call.dialect === "gemini")).toBe(true);
      expect(routingLlm.calls.every((call) => call.path.includes("/models/gemini-2.5-flash-lite:"))).toBe(
        true,
      );
      expect(routingLlm.requests.every((r) => offeredToolNames(r).includes("call_agent"))).toBe(true);
      expect(routingLlm.requests.some((r) => offeredToolNames(r).includes("search_issues"))).toBe(false);
      // The Jira agent's calls went to the shared model server, over OpenAI's protocol, and only its.
      const jiraCalls = llm.calls.slice(from);
      const jiraRequests = llm.requests.slice(from);
      expect(jiraCalls.length).toBeGreaterThanOrEqual(2);
      expect(jiraCalls.every((call) => call.dialect === "openai")).toBe(true);
      expect(jiraRequests.every((r) => offeredToolNames(r).includes("search_issues"))).toBe(true);
      expect(jiraRequests.some((r) => offeredToolNames(r).includes("call_agent"))).toBe(false);
    } finally {
      await supervisor.kill("SIGTERM");
    }
  });

  it.each(PROVIDERS)("routes to Jira and summarizes over LLM_PROVIDER=%s", async (provider, dialect) => {
    const from = llm.calls.length;
    const supervisor = await startAgent("supervisor", supervisorPort, {
      ...testMongoEnv(dbName),
      ...llm.envFor(provider),
      ENABLE_JIRA: "true",
      JIRA_AGENT_URL: `http://127.0.0.1:${jiraPort}`,
      ENABLE_WEATHER: "false",
      MAX_CONTEXT_TOKENS: "120",
      MIN_MESSAGES_TO_KEEP: "2",
    });
    try {
      const connection = await connectAgent(`http://127.0.0.1:${supervisorPort}`);
      const contextId = `providers-${randomUUID()}`;
      const first = await connection.send({ text: "jira: open issues in PLAT", contextId });
      expect(first.state).toBe("completed");
      expect(first.text).toMatch(/PLAT-1 \[In Progress\]/);
      const second = await connection.send({ text: "jira: open issues in OPS", contextId });
      expect(second.state).toBe("completed");
      expect(second.text).toContain("OPS-1");

      const supervisorCalls = llm.calls
        .slice(from)
        .map((call, i) => ({ call, request: llm.requests[from + i] }))
        .filter(({ call }) => call.dialect !== "openai");
      // Every supervisor request (routing, answering, summarizing) came over the provider's protocol.
      expect(supervisorCalls.length).toBeGreaterThanOrEqual(4);
      expect(supervisorCalls.every(({ call }) => call.dialect === dialect)).toBe(true);
      const requests = supervisorCalls.map(({ request }) => request);
      expect(
        requests.filter((r) => r && offeredToolNames(r).includes("call_agent")).length,
      ).toBeGreaterThanOrEqual(2);
      expect(requests.some((r) => r !== undefined && isSummaryRequest(r))).toBe(true);
    } finally {
      await supervisor.kill("SIGTERM");
    }
  });
});
