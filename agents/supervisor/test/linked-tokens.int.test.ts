import { randomBytes, randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { connectAgent } from "@switchboard/a2a-client";
import { type AgentDefinition, serveAgent } from "@switchboard/agent-runtime";
import { createLogger } from "@switchboard/common";
import { closeCheckpointer } from "@switchboard/utils";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import { type FakeGithub, startFakeGithub } from "@switchboard-testing/fake-github";
import { type OtlpReceiver, startOtlpReceiver } from "@switchboard-testing/otlp-receiver";
import { type AgentProcess, freePort } from "@switchboard-testing/test-agents";
import { hopKeys, type IdentityProvider, signIn, startIdentityProvider } from "@switchboard-testing/test-idp";
import {
  callTool,
  replyFromToolResult,
  routeByAgentPrefix,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { testMongoEnv, testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAgent } from "./fleet.js";

// Reads for engineers with any credential; changes only with a token of the user's own.
const POLICY = `
@id("signed-in-reach")
permit(principal, action == Switchboard::Action::"reach", resource) when { principal.authenticated };

@id("engineers-work")
permit(principal in Switchboard::Group::"engineers", action in [Switchboard::Action::"read", Switchboard::Action::"change"], resource);

@id("changes-as-yourself")
forbid(principal, action == Switchboard::Action::"change", resource) when { context.credential == "service" };
`;

const script = rules(
  [
    ...routeByAgentPrefix(),
    { toolOffered: "call_agent", reply: say("Tell me which agent to ask.") },
    { lastUser: /my repositories/, reply: callTool("list_repos", {}) },
    {
      lastUser: /file an issue in (\S+)/,
      reply: (_r, { match }) => callTool("create_issue", { repo: match?.[1], title: "Linked token check" }),
    },
    { afterTool: true, reply: replyFromToolResult() },
  ],
  say("ok"),
);

/** An agent that takes GitHub tokens and nothing else: what the key checks need. */
const keyCheckAgent: AgentDefinition = {
  name: "github",
  title: "GitHub",
  description: "Key checks.",
  systemPrompt: "Key checks.",
  skills: [],
  tools: () => [],
  linkedTokens: { vendor: "github", title: "GitHub", hint: "a personal access token" },
};

interface FleetLinks {
  agents: Array<{
    agent: string;
    enabled: boolean;
    vendor?: { vendor: string };
    linked?: Array<{ vendor: string; linkedAt: string }>;
    reason?: string;
  }>;
  unavailable: Array<{ agent: string }>;
}

describe("tokens a user links, through the supervisor, used for that user's GitHub calls", () => {
  const dbName = uniqueDbName("linked-tokens");
  const policyFile = join(scratchDir("linked-tokens"), "policies.cedar");
  const key = randomBytes(32).toString("hex");
  const aliceToken = `ghp_${randomBytes(18).toString("hex")}`;
  const serviceToken = `ghp_${randomBytes(18).toString("hex")}`;
  let idp: IdentityProvider;
  let llm: ScriptedLlm;
  let github: FakeGithub;
  let receiver: OtlpReceiver;
  let mongo: MongoClient;
  let supervisorUrl: string;
  let githubEnv: Record<string, string>;
  let githubPort: number;
  const processes: AgentProcess[] = [];
  const tokens: Record<string, string> = {};

  const call = async (method: string, path: string, user: string, body?: unknown) => {
    const response = await fetch(`${supervisorUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${tokens[user]}`,
        ...(body ? { "content-type": "application/json" } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, text: await response.text() };
  };
  const links = async (user: string) =>
    JSON.parse((await call("GET", "/linked-tokens", user)).text) as FleetLinks;
  /** One turn through the supervisor; the GitHub requests it caused. */
  const ask = async (user: string, text: string) => {
    const before = github.requests.length;
    const connection = await connectAgent(supervisorUrl, { token: tokens[user] ?? "" });
    const result = await connection.send({ text, contextId: `conv-${randomUUID()}` });
    return { result: JSON.stringify(result), requests: github.requests.slice(before) };
  };

  beforeAll(async () => {
    writeFileSync(policyFile, POLICY);
    let supervisorPort: number;
    [idp, llm, github, receiver, mongo, githubPort, supervisorPort] = await Promise.all([
      startIdentityProvider({ users: { alice: { groups: ["engineers"] }, bob: { groups: ["engineers"] } } }),
      startScriptedLlm({ script }),
      startFakeGithub({ token: serviceToken, userTokens: { [aliceToken]: "octo-dev" } }),
      startOtlpReceiver(),
      MongoClient.connect(testMongoUri()),
      freePort(),
      freePort(),
    ]);
    for (const user of ["alice", "bob"]) tokens[user] = await signIn(idp, user);
    const common = {
      ...testMongoEnv(dbName),
      ...llm.env,
      ...receiver.env,
      AUTH_MODE: "jwt",
      AUTH_JWKS_URL: idp.jwksUrl,
      AUTH_ISSUER: idp.issuer,
      AUTH_AUDIENCE: idp.audience,
      ...hopKeys(),
      AUTHZ_POLICY_FILE: policyFile,
      LOG_LEVEL: "debug",
    };
    githubEnv = {
      ...common,
      GITHUB_API_URL: github.url,
      GITHUB_PERSONAL_ACCESS_TOKEN: serviceToken,
      CREDENTIALS_ENCRYPTION_KEY: key,
    };
    processes.push(await startAgent("github", githubPort, githubEnv));
    processes.push(
      await startAgent("supervisor", supervisorPort, {
        ...common,
        ENABLE_GITHUB: "true",
        GITHUB_AGENT_URL: `http://127.0.0.1:${githubPort}`,
        ENABLE_JIRA: "false",
        ENABLE_WEATHER: "false",
      }),
    );
    supervisorUrl = `http://127.0.0.1:${supervisorPort}`;
    for (let waited = 0; waited < 15_000; waited += 200) {
      if ((await links("alice")).agents.some((agent) => agent.agent === "github")) break;
      await sleep(200);
    }
  });
  afterAll(async () => {
    await Promise.all(processes.splice(0).map((agent) => agent.kill("SIGTERM")));
    await closeCheckpointer(); // the failed in-process starts' connections
    await mongo?.db(dbName).dropDatabase();
    await Promise.all([mongo?.close(), llm?.close(), github?.close(), receiver?.close(), idp?.close()]);
  });

  it("links alice's token; the list shows which vendor and when, never the token, and only to her", async () => {
    const linked = await call("PUT", "/linked-tokens/github", "alice", { token: aliceToken });
    expect(linked.status).toBe(200);
    expect(linked.text).not.toContain(aliceToken);
    const mine = await links("alice");
    const githubLinks = mine.agents.find((agent) => agent.agent === "github");
    expect(githubLinks).toMatchObject({
      enabled: true,
      vendor: { vendor: "github" },
      linked: [{ vendor: "github" }],
    });
    expect(Date.parse(githubLinks?.linked?.[0]?.linkedAt ?? "")).toBeGreaterThan(Date.now() - 60_000);
    expect(JSON.stringify(mine)).not.toContain(aliceToken);
    expect((await links("bob")).agents.find((agent) => agent.agent === "github")?.linked).toEqual([]);
    // A vendor no agent takes, and an empty token, are refused saying why.
    const unknown = await call("PUT", "/linked-tokens/jira", "alice", { token: "x" });
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain("No agent takes jira tokens (these do: github)");
    const empty = await call("PUT", "/linked-tokens/github", "bob", { token: " " });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain("The GitHub token is empty");
  });

  it("alice's calls carry her token; bob's read carries the service token and his change is refused, told to link", async () => {
    const alice = await ask("alice", "github: list my repositories");
    expect(alice.result).toContain("acme/platform-api");
    expect(alice.requests.length).toBeGreaterThan(0);
    expect(alice.requests.every((request) => request.token === aliceToken)).toBe(true);

    const bob = await ask("bob", "github: list my repositories");
    expect(bob.requests.length).toBeGreaterThan(0);
    expect(bob.requests.every((request) => request.token === serviceToken)).toBe(true);

    const change = await ask("bob", "github: file an issue in acme/platform-api");
    expect(change.requests).toEqual([]);
    expect(change.result).toContain("only with a GitHub token of their own");
    expect(change.result).toContain("link their GitHub token in the web chat (Linked tokens)");
  });

  it("no token value in any MongoDB collection, log line or exported span", async () => {
    // Spans and log records are exported in batches: wait for the GitHub agent's.
    await receiver.waitFor((spans) => spans.some((span) => span.service === "switchboard-github"));
    const secrets = [aliceToken, key, Buffer.from(key, "hex").toString("base64")];
    const db = mongo.db(dbName);
    const collections = (await db.listCollections().toArray()).map(({ name }) => name).sort();
    expect(collections).toEqual(
      expect.arrayContaining(["linked_tokens_github", "checkpoints_github", "tasks_supervisor"]),
    );
    const stored = await db.collection("linked_tokens_github").countDocuments();
    expect(stored).toBe(2); // alice's sealed token and the key check
    for (const name of collections) {
      const text = JSON.stringify(await db.collection(name).find().toArray());
      for (const secret of secrets) expect(text.includes(secret), `${name} holds a token`).toBe(false);
    }
    const logs = processes.map((agent) => agent.logs()).join("\n");
    expect(logs).toContain("github agent ready");
    const exported = receiver.bodies.join("\n");
    expect(exported.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      expect(logs.includes(secret), "a log line holds a token").toBe(false);
      expect(exported.includes(secret), "an exported span or log record holds a token").toBe(false);
    }
  });

  it("unlinks: the list is empty and alice's next call carries the service token", async () => {
    const unlinked = await call("DELETE", "/linked-tokens/github", "alice");
    expect(unlinked.status).toBe(200);
    expect(JSON.parse(unlinked.text).agents).toEqual([
      expect.objectContaining({ agent: "github", vendor: "github", unlinked: true }),
    ]);
    expect((await links("alice")).agents.find((agent) => agent.agent === "github")?.linked).toEqual([]);
    const alice = await ask("alice", "github: list my repositories");
    expect(alice.requests.every((request) => request.token === serviceToken)).toBe(true);
  });

  it("another key, or linking on without a key, stops the start saying what to set", async () => {
    // The same agent and collection, served in this process: the start fails before it listens.
    const serve = (env: Record<string, string>) =>
      serveAgent(
        { ...keyCheckAgent, name: "github" },
        {
          env: {
            ...testMongoEnv(dbName),
            ...llm.env,
            AGENT_NAME: "github",
            PORT: "0",
            HOST: "127.0.0.1",
            ...env,
          },
          logger: createLogger({ level: "silent" }),
        },
      );
    await expect(serve({ CREDENTIALS_ENCRYPTION_KEY: randomBytes(32).toString("hex") })).rejects.toThrow(
      /CREDENTIALS_ENCRYPTION_KEY is not the key the tokens in linked_tokens_github were sealed with/,
    );
    await expect(serve({ CREDENTIALS_ENCRYPTION_KEY: "", LINKED_TOKENS_ENABLED: "true" })).rejects.toThrow(
      /LINKED_TOKENS_ENABLED=true but CREDENTIALS_ENCRYPTION_KEY is not set/,
    );
    await expect(serve({ CREDENTIALS_ENCRYPTION_KEY: "too-short" })).rejects.toThrow(
      /CREDENTIALS_ENCRYPTION_KEY must be a 32-byte key/,
    );
  });
});
