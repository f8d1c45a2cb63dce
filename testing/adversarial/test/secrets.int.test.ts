import { randomBytes, randomUUID } from "node:crypto";
import { join } from "node:path";
import { type AgentProcess, freePort, startAgentProcess } from "@switchboard-testing/test-agents";
import {
  callTool,
  replyFromToolResult,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { testMongoEnv, testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const modules = join(import.meta.dirname, "../node_modules/@switchboard");
const jiraDir = join(modules, "agent-jira");
const supervisorDir = join(modules, "supervisor");
const slackBotDir = join(modules, "slack-bot");

// biome-ignore lint/suspicious/noExplicitAny: JSON-RPC answers of many shapes
type Json = any;

/** Sends one message and returns the agent's answer text. */
async function tell(agent: AgentProcess, text: string): Promise<string> {
  const response = await fetch(`${agent.url}/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: randomUUID(),
      method: "message/send",
      params: {
        message: {
          kind: "message",
          role: "user",
          messageId: randomUUID(),
          contextId: `secrets-${randomUUID()}`,
          parts: [{ kind: "text", text }],
        },
      },
    }),
  });
  const reply: Json = await response.json();
  const parts: Json[] = reply.result?.status?.message?.parts ?? reply.result?.artifacts?.[0]?.parts ?? [];
  return parts.map((part) => part.text ?? "").join("");
}

// Test values are assembled from pieces so that this file itself holds no token a scanner flags.
const jwt = [
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9",
  "eyJzdWIiOiJhbGljZSIsImF1ZCI6InN3aXRjaGJvYXJkIn0",
  "Qm9vdHN0cmFwVG9rZW5TaWduYXR1cmVIZXJlMTIzNDU",
].join(".");

/** What a user (or injected text) asks an agent to remember, one of each kind the README says is refused. */
const SECRETS: Array<[kind: string, secret: string, sentence: string]> = [
  ["GitLab token", `glpat-${"xY3kP9qLm2Vn8RtW4zAb"}`, "my GitLab token is %s"],
  ["JWT", jwt, "the deploy bot authenticates with %s"],
  ["OpenAI project key", `${"sk-proj-"}AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEf`, "use %s for OpenAI"],
  ["Google API key", `${"AIza"}SyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY`, "the maps key: %s"],
  ["bare AWS secret key", `${"wJalrXUtnFEMI/K7MDENG/bPxRfiCY"}EXAMPLEKEY`, "the prod AWS secret %s"],
  ["password phrase", "hunter2", "password %s"],
  ["password with a colon", "Tr0ub4dor&3", "the admin password: %s"],
  ["GitHub token", `${"ghp_"}0123456789abcdefghijklmnopqrstuvwxyzAB`, "my GitHub token %s"],
  [
    "random webhook secret",
    `${"Zk3q9XvB2mRt7LpW4nYc"}8HsD1fGj6KaE`,
    "the webhook signing secret %s, keep it",
  ],
];

describe("secrets stay secret", () => {
  const dbName = uniqueDbName("adv-secrets");
  let llm: ScriptedLlm;
  let mongo: MongoClient;
  let jira: AgentProcess;

  beforeAll(async () => {
    llm = await startScriptedLlm({
      script: rules(
        [
          {
            lastUser: /^remember under (.+?): (.+)$/is,
            reply: (_request, { match }) =>
              callTool("remember", { memory: match?.[2] ?? "", topic: match?.[1] ?? "" }),
          },
          {
            lastUser: /^remember that (.+)$/is,
            reply: (_request, { match }) =>
              callTool("remember", { memory: match?.[1] ?? "", topic: "credentials" }),
          },
          { afterTool: "remember", reply: replyFromToolResult((results) => results[0]?.content ?? "") },
        ],
        say("ok"),
      ),
    });
    mongo = await MongoClient.connect(testMongoUri());
    jira = await startAgentProcess(jiraDir, { env: { ...testMongoEnv(dbName), ...llm.env } });
  });
  afterAll(async () => {
    await jira?.kill("SIGTERM");
    await mongo?.db(dbName).dropDatabase();
    await Promise.all([mongo?.close(), llm?.close()]);
  });

  /** Every stored document of the agent's database that holds `needle`. */
  const stored = async (needle: string) => {
    const found: string[] = [];
    const db = mongo.db(dbName);
    for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
      if (!name.startsWith("store") && !name.startsWith("memor")) continue;
      for (const doc of await db.collection(name).find().toArray())
        if (JSON.stringify(doc).includes(needle)) found.push(name);
    }
    return found;
  };

  it.each(SECRETS)(
    "memory refuses a %s told to the agent's remember tool",
    async (_kind, secret, sentence) => {
      const answer = await tell(jira, `remember that ${sentence.replace("%s", secret)}`);
      expect(answer).toMatch(/^Not remembered/);
      expect(answer).not.toContain(secret);
      expect(await stored(secret)).toEqual([]);
    },
  );

  it("memory refuses a secret hidden in the memory's topic rather than its text", async () => {
    const secret = `glpat-${"Hq7wZ2mXc9Lp4Rt8VbN3"}`;
    const answer = await tell(jira, `remember under ci ${secret}: the CI runs on GitLab`);
    expect(answer).toMatch(/^Not remembered/);
    expect(await stored(secret)).toEqual([]);
  });

  it("still remembers ordinary facts: a sentence with a UUID and a commit SHA", async () => {
    const fact =
      "incident 3f1c2a9e-7b1d-4f7a-9c55-0e9f3a1b2c3d was fixed in 9fceb02d0ae598e95dc970b74767f19372d61af8";
    expect(await tell(jira, `remember that ${fact}`)).toBe("I will remember that.");
    expect((await stored("9fceb02d0ae598e95dc970b74767f19372d61af8")).length).toBeGreaterThan(0);
  });

  it("prints no password or token of a URL setting at start-up, nor in an unreachable subagent's error", async () => {
    const redisPassword = `redis-${randomBytes(6).toString("hex")}`;
    const agentPassword = `agent-${randomBytes(6).toString("hex")}`;
    const queryToken = `tok-${randomBytes(6).toString("hex")}`;
    const closedPort = await freePort();
    const supervisor = await startAgentProcess(supervisorDir, {
      env: {
        ...testMongoEnv(dbName),
        ...llm.env,
        LANGGRAPH_STORE_REDIS_URL: `redis://:${redisPassword}@cache.internal:6379/0`,
        ENABLE_JIRA: "true",
        // Nothing listens there: its card cannot be read, and the error names the URL.
        JIRA_AGENT_URL: `http://127.0.0.1:${closedPort}/?access_token=${queryToken}`,
        ENABLE_GITHUB: "true",
        GITHUB_AGENT_URL: `http://bot:${agentPassword}@127.0.0.1:${closedPort}/`,
      },
    });
    try {
      // A turn: the roster tries the unreachable subagent again, and the user reads the answer.
      const answer = await tell(supervisor, "ask the jira agent for my open issues");
      const printed = `${supervisor.logs()}\n${answer}`;
      expect(printed).toContain("LANGGRAPH_STORE_REDIS_URL=redis://:****@cache.internal:6379/0");
      expect(printed).toContain(`127.0.0.1:${closedPort}`);
      for (const secret of [redisPassword, agentPassword, queryToken]) expect(printed).not.toContain(secret);
    } finally {
      await supervisor.kill("SIGTERM");
    }
  });

  it.each([
    ["64 zeros", "0".repeat(64)],
    ["a 43-character passphrase", "correcthorsebatterystaplecorrecthorsebatter"],
    ["one byte repeated, as base64", Buffer.alloc(32, 7).toString("base64")],
  ])(
    "a CREDENTIALS_ENCRYPTION_KEY of %s stops the agent's start, naming the setting and the fix",
    async (_what, key) => {
      const started = startAgentProcess(jiraDir, {
        env: { ...testMongoEnv(dbName), ...llm.env, CREDENTIALS_ENCRYPTION_KEY: key },
      });
      await expect(started).rejects.toThrow(
        /exited with code 1[\s\S]*CREDENTIALS_ENCRYPTION_KEY (is a weak key|must be a 32-byte key)[\s\S]*openssl rand -base64 32/,
      );
    },
  );

  it("the Slack relay, which seals its linked users under the same key, refuses a key of zeros too", async () => {
    const started = startAgentProcess(slackBotDir, {
      env: {
        ...testMongoEnv(dbName),
        SLACK_INTEGRATION_BOT_MODE: "http",
        SLACK_INTEGRATION_BOT_TOKEN: "xoxb-test",
        SLACK_INTEGRATION_SIGNING_SECRET: "signing-secret",
        SLACK_API_URL: `http://127.0.0.1:${await freePort()}/api/`,
        // Everything else a signed-in relay needs is set: only the key is wrong.
        AUTH_MODE: "jwt",
        AUTH_JWT_SECRET: "adversarial-secrets-relay-secret-32+chars",
        AUTH_ISSUER: "adversarial-secrets",
        AUTH_AUDIENCE: "switchboard",
        OIDC_ISSUER: `http://127.0.0.1:${await freePort()}`,
        OIDC_CLIENT_ID: "switchboard-web",
        CREDENTIALS_ENCRYPTION_KEY: "0".repeat(64),
      },
    });
    await expect(started).rejects.toThrow(
      /exited with code 1[\s\S]*CREDENTIALS_ENCRYPTION_KEY is a weak key/,
    );
  });
});
