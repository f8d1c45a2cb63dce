import { createHash, randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { connectAgent } from "@switchboard/a2a-client";
import { type FakeJira, startFakeJira } from "@switchboard-testing/fake-jira";
import { type AgentProcess, freePort } from "@switchboard-testing/test-agents";
import { hopKeys } from "@switchboard-testing/test-idp";
import {
  type ChatCompletionRequest,
  callTool,
  messageText,
  offeredToolNames,
  replyFromToolResult,
  routeByAgentPrefix,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { testMongoEnv, testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { SignJWT } from "jose";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAgent } from "./fleet.js";

const SECRET = "fleet-memory-secret-".padEnd(40, "x");
const subjectKey = (sub: string) => createHash("sha256").update(sub).digest("hex").slice(0, 16);

describe("long-term memory across the fleet", () => {
  const dbName = uniqueDbName("fleet-memory");
  let llm: ScriptedLlm;
  let jira: FakeJira;
  let mongo: MongoClient;
  let supervisorPort: number;
  const processes: AgentProcess[] = [];
  const tokens: Record<string, string> = {};

  const sign = (subject: string) =>
    new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer("switchboard-test")
      .setIssuedAt()
      .setSubject(subject)
      .setAudience("switchboard")
      .setExpirationTime("10m")
      .sign(new TextEncoder().encode(SECRET));
  const ask = async (user: string, text: string) => {
    const connection = await connectAgent(`http://127.0.0.1:${supervisorPort}`, { token: tokens[user] });
    return connection.send({ text, contextId: `conv-${randomUUID()}` });
  };
  const http = async (user: string, method: string, path: string) => {
    const response = await fetch(`http://127.0.0.1:${supervisorPort}${path}`, {
      method,
      headers: { authorization: `Bearer ${tokens[user]}` },
    });
    return (await response.json()) as Record<string, unknown>;
  };

  beforeAll(async () => {
    let jiraPort: number;
    [llm, jira, mongo, jiraPort, supervisorPort] = await Promise.all([
      startScriptedLlm({
        script: rules(
          [
            {
              toolOffered: "call_agent",
              lastUser: /^remember that (.+) \(topic: (.+)\)$/,
              reply: (_request, { match }) => callTool("remember", { memory: match?.[1], topic: match?.[2] }),
            },
            { afterTool: "remember", reply: replyFromToolResult((results) => results[0]?.content ?? "") },
            ...routeByAgentPrefix(),
          ],
          say("Jira here."),
        ),
      }),
      startFakeJira(),
      MongoClient.connect(testMongoUri()),
      freePort(),
      freePort(),
    ]);
    for (const user of ["alice", "bob"]) tokens[user] = await sign(user);
    const common = {
      ...testMongoEnv(dbName),
      ...llm.env,
      AUTH_MODE: "jwt",
      AUTH_JWT_SECRET: SECRET,
      AUTH_ISSUER: "switchboard-test",
      AUTH_AUDIENCE: "switchboard",
      ...hopKeys(),
    };
    processes.push(
      await startAgent("jira", jiraPort, {
        ...common,
        ATLASSIAN_API_URL: jira.url,
        ATLASSIAN_EMAIL: jira.email,
        ATLASSIAN_TOKEN: jira.token,
      }),
    );
    processes.push(
      await startAgent("supervisor", supervisorPort, {
        ...common,
        ENABLE_JIRA: "true",
        JIRA_AGENT_URL: `http://127.0.0.1:${jiraPort}`,
        ENABLE_GITHUB: "false",
        ENABLE_WEATHER: "false",
      }),
    );
    for (let waited = 0; waited < 15_000; waited += 200) {
      const { subagents } = (await http("alice", "GET", "/subagents")) as {
        subagents: Array<{ name: string; status: string }>;
      };
      if (subagents.find((agent) => agent.name === "jira")?.status === "available") break;
      await sleep(200);
    }
  });
  afterAll(async () => {
    await Promise.all(processes.splice(0).map((agent) => agent.kill("SIGTERM")));
    await mongo?.db(dbName).dropDatabase();
    await Promise.all([mongo?.close(), llm?.close(), jira?.close()]);
  });

  it("passes what the user asked the supervisor to remember to a subagent in a later conversation; forget me erases it fleet-wide", async () => {
    const told = await ask("alice", "remember that our Jira project is PLAT (topic: jira project)");
    expect(told.text).toBe("I will remember that.");

    const at = llm.requests.length;
    const routed = await ask("alice", "jira: list my team's open issues");
    expect(routed.state).toBe("completed");
    const jiraRequests = llm.requests
      .slice(at)
      .filter((request) => !offeredToolNames(request).includes("call_agent"));
    const jiraSaw = (jiraRequests[0] as ChatCompletionRequest).messages
      .filter((message) => message.role === "user")
      .map((message) => messageText(message.content))
      .join("\n");
    expect(jiraSaw).toContain("list my team's open issues");
    expect(jiraSaw).toContain("our Jira project is PLAT");

    // Bob, with the same request, gets none of it.
    const bobAt = llm.requests.length;
    await ask("bob", "jira: list my team's open issues");
    const bobSaw = JSON.stringify(llm.requests.slice(bobAt));
    expect(bobSaw).not.toContain("our Jira project is PLAT");

    const listed = (await http("alice", "GET", "/memories")) as {
      memories: Array<{ agent: string; text: string }>;
      unavailable: unknown[];
    };
    expect(listed.memories.map(({ agent, text }) => ({ agent, text }))).toEqual([
      { agent: "supervisor", text: "our Jira project is PLAT" },
    ]);
    expect(listed.unavailable).toEqual([]);
    expect(((await http("bob", "GET", "/memories")) as { memories: unknown[] }).memories).toEqual([]);

    const forgotten = (await http("alice", "DELETE", "/me")) as {
      forgotten: Array<{ agent: string; conversations: number; memories: number }>;
    };
    expect(
      forgotten.forgotten.map(({ agent, conversations, memories }) => ({ agent, conversations, memories })),
    ).toEqual([
      { agent: "supervisor", conversations: 2, memories: 1 },
      { agent: "jira", conversations: 1, memories: 0 },
    ]);
    // Nothing of Alice's is left in any collection but the audit trails; Bob's are untouched.
    const db = mongo.db(dbName);
    const left: string[] = [];
    let bobs = 0;
    for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
      if (name.startsWith("audit_")) continue;
      for (const doc of await db.collection(name).find().toArray()) {
        const text = JSON.stringify(doc);
        if (text.includes(subjectKey("alice")) || text.includes("PLAT"))
          left.push(`${name}: ${text.slice(0, 100)}`);
        if (text.includes(subjectKey("bob"))) bobs += 1;
      }
    }
    expect(left).toEqual([]);
    expect(bobs).toBeGreaterThan(0);
  });
});
