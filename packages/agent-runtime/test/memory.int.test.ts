import { randomUUID } from "node:crypto";
import { ClientFactory } from "@a2a-js/sdk/client";
import {
  type ChatCompletionRequest,
  callTool,
  messageText,
  replyFromToolResult,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { MongoClient } from "mongodb";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddings } from "../src/memory/embeddings.js";
import { EXTRACTION_PROMPT } from "../src/memory/fact-extraction.js";
import type { RunningAgent } from "../src/serve.js";
import { send, statusText } from "./a2a.js";
import { subjectKey, systemOf, userTokens } from "./memory-users.js";
import { serveNotesAgent } from "./notes-agent.js";

const SECRET = "memory-test-secret-of-at-least-32-chars!";
const GITHUB_TOKEN = "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";

const sign = userTokens(SECRET);

describe("long-term memory: remembered across conversations, per user, under the user's control", () => {
  const dbName = uniqueDbName("memory");
  let llm: ScriptedLlm;
  let mongo: MongoClient;
  let agent: RunningAgent | undefined;
  const tokens: Record<string, string> = {};
  const extracted: string[] = [];

  const start = (env: Record<string, string> = {}) =>
    serveNotesAgent({
      llm,
      dbName,
      env: {
        AUTH_MODE: "jwt",
        AUTH_JWT_SECRET: SECRET,
        AUTH_ISSUER: "switchboard-test",
        AUTH_AUDIENCE: "switchboard",
        ...env,
      },
    });
  const say_ = async (user: string, text: string, contextId = `ctx-${randomUUID()}`) => {
    const client = await new ClientFactory().createFromUrl((agent as RunningAgent).url);
    const task = await send(client, text, contextId, "", {
      serviceParameters: { Authorization: `Bearer ${tokens[user]}` },
    });
    return { contextId, answer: statusText(task) };
  };
  const http = async (user: string, method: string, path: string) => {
    const response = await fetch(`${(agent as RunningAgent).url}${path}`, {
      method,
      headers: { authorization: `Bearer ${tokens[user]}` },
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const memoriesOf = async (user: string) =>
    (await http(user, "GET", "/memories")).body.memories as Array<{
      id: string;
      text: string;
      source: string;
    }>;
  /** Every document of every collection (the audit trail aside, or only `only`) that mentions `needle`. */
  const scan = async (needle: string, only?: string) => {
    const db = mongo.db(dbName);
    const found: string[] = [];
    for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
      if (name.startsWith("audit_") || (only && name !== only)) continue;
      for (const doc of await db.collection(name).find().toArray()) {
        if (
          JSON.stringify(doc).includes(needle) ||
          Buffer.from(JSON.stringify(doc)).toString("base64").includes(needle)
        )
          found.push(`${name}: ${JSON.stringify(doc).slice(0, 120)}`);
      }
    }
    return found;
  };

  beforeAll(async () => {
    [llm, mongo] = await Promise.all([
      startScriptedLlm({
        script: rules(
          [
            {
              system: /extract lasting facts/i,
              reply: (request) => {
                extracted.push(messageText(request.messages.at(-1)?.content));
                return say(
                  JSON.stringify({
                    facts: [
                      { topic: "aws region", fact: "The user works in us-west-2." },
                      { topic: "github token", fact: `The user's GitHub token is ${GITHUB_TOKEN}.` },
                    ],
                  }),
                );
              },
            },
            {
              lastUser: /^remember that (.+?)(?: \(topic: (.+)\))?$/i,
              reply: (_request, { match }) =>
                callTool("remember", { memory: match?.[1] ?? "", topic: match?.[2] ?? match?.[1] ?? "" }),
            },
            { afterTool: "remember", reply: replyFromToolResult((results) => results[0]?.content ?? "") },
          ],
          say("ok"),
        ),
      }),
      MongoClient.connect(testMongoUri()),
    ]);
    for (const user of ["alice", "bob", "carol", "dave"]) tokens[user] = await sign(user);
  });
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
  });
  afterAll(async () => {
    await mongo?.db(dbName).dropDatabase();
    await Promise.all([mongo?.close(), llm?.close()]);
  });

  it("recalls a fact told in one conversation in a new one, for that user only; refuses secrets; erases on request", async () => {
    agent = await start();
    const told = await say_("alice", "remember that our Jira project is PLAT (topic: jira project)");
    expect(told.answer).toBe("I will remember that.");
    // Bob says the same words: his own memory, never Alice's.
    await say_("bob", "remember that our Jira project is OPS (topic: jira project)");

    const before = llm.requests.length;
    await say_("alice", "which Jira project is ours?");
    const aliceSaw = systemOf(llm.requests[before] as ChatCompletionRequest);
    expect(aliceSaw).toContain("our Jira project is PLAT");
    expect(aliceSaw).not.toContain("OPS");
    const bobAt = llm.requests.length;
    await say_("bob", "which Jira project is ours?");
    const bobSaw = systemOf(llm.requests[bobAt] as ChatCompletionRequest);
    expect(bobSaw).toContain("our Jira project is OPS");
    expect(bobSaw).not.toContain("PLAT");

    // The same topic again: updated, not piled up.
    await say_("alice", "remember that our Jira project is PAY (topic: jira project)");
    expect((await memoriesOf("alice")).map((memory) => memory.text)).toEqual(["our Jira project is PAY"]);

    // A secret is refused before anything is stored.
    const refused = await say_("alice", `remember that my GitHub token is ${GITHUB_TOKEN} (topic: github)`);
    expect(refused.answer).toMatch(/^Not remembered: it contains .*secret/i);
    const password = await say_("alice", "remember that the admin password is hunter2-prod (topic: admin)");
    expect(password.answer).toMatch(/^Not remembered/);
    expect(await memoriesOf("alice")).toHaveLength(1);
    expect(await scan(GITHUB_TOKEN.slice(4), "store_notes")).toEqual([]);

    // Extraction is off by default: no extraction request was ever sent.
    expect(llm.requests.some((request) => systemOf(request).includes(EXTRACTION_PROMPT.slice(0, 40)))).toBe(
      false,
    );

    // Bob cannot erase Alice's memory by its id; Alice can.
    const [memory] = await memoriesOf("alice");
    expect((await http("bob", "DELETE", `/memories/${memory?.id}`)).status).toBe(404);
    expect(await http("alice", "DELETE", `/memories/${memory?.id}`)).toEqual({
      status: 200,
      body: { agent: "notes", deleted: memory?.id },
    });
    expect(await memoriesOf("alice")).toEqual([]);
    expect((await memoriesOf("bob")).map((entry) => entry.text)).toEqual(["our Jira project is OPS"]);
  });

  it("extracts facts after the answer when ENABLE_FACT_EXTRACTION is on, refusing the secret among them", async () => {
    agent = await start({ ENABLE_FACT_EXTRACTION: "true" });
    const { answer } = await say_("alice", "I work in us-west-2, my token is in the vault");
    expect(answer).toBe("ok");
    let texts: string[] = [];
    for (let waited = 0; waited < 10_000 && !texts.includes("The user works in us-west-2."); waited += 100) {
      texts = (await memoriesOf("alice")).map((entry) => entry.text);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(texts).toContain("The user works in us-west-2.");
    expect(texts.join(" ")).not.toContain("ghp_");
    expect(extracted.at(-1)).toContain("I work in us-west-2");
    // Extracted again: the same topic is updated, not added twice.
    await say_("alice", "still us-west-2");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await memoriesOf("alice")).filter((entry) => entry.text.includes("us-west-2"))).toHaveLength(1);
  });

  it("forget me erases the user's conversations, tasks and memories from every collection, and only theirs", async () => {
    agent = await start();
    const { contextId } = await say_(
      "carol",
      "remember that our Argo CD apps are prefixed pay- (topic: argocd prefix)",
    );
    await say_("carol", "what are my apps called?");
    await say_("bob", "remember that bob likes tabs (topic: indent)");
    expect((await scan(subjectKey("carol"))).length).toBeGreaterThan(0);

    const forgotten = await http("carol", "DELETE", "/me");
    expect(forgotten).toEqual({
      status: 200,
      body: {
        agent: "notes",
        conversations: expect.any(Number),
        tasks: expect.any(Number),
        memories: 1,
        linkedTokens: 0,
      },
    });
    expect(forgotten.body).toMatchObject({ conversations: 2, tasks: 2 });
    expect(await scan(subjectKey("carol"))).toEqual([]);
    expect(await scan("prefixed pay-")).toEqual([]);
    expect(await scan(contextId)).toEqual([]);
    // Bob's are untouched.
    expect((await memoriesOf("bob")).map((entry) => entry.text).sort()).toEqual([
      "bob likes tabs",
      "our Jira project is OPS",
    ]);
    expect((await scan(subjectKey("bob"))).length).toBeGreaterThan(0);
  });

  // Each provider's own LangChain client against the test LLM's copy of its protocol; the chat model
  // stays OpenAI's. Bedrock: EMBEDDINGS_MODEL unset, so CAIPE's default Titan model.
  it.each([
    {
      provider: "openai",
      path: "/v1/embeddings",
      env: (): Record<string, string> => ({ EMBEDDINGS_MODEL: "text-embedding-3-small" }),
      body: { model: "text-embedding-3-small" },
    },
    {
      provider: "aws-bedrock",
      path: "/model/amazon.titan-embed-text-v2:0/invoke",
      env: (): Record<string, string> => {
        const aws = llm.envFor("aws-bedrock");
        return {
          AWS_REGION: "us-west-2",
          AWS_ACCESS_KEY_ID: aws.AWS_ACCESS_KEY_ID as string,
          AWS_SECRET_ACCESS_KEY: aws.AWS_SECRET_ACCESS_KEY as string,
          AWS_ENDPOINT_URL_BEDROCK_RUNTIME: aws.AWS_ENDPOINT_URL_BEDROCK_RUNTIME as string,
        };
      },
      body: { inputText: expect.any(String) },
    },
    {
      provider: "ollama",
      path: "/api/embed",
      env: (): Record<string, string> => ({
        EMBEDDINGS_MODEL: "nomic-embed-text",
        OLLAMA_BASE_URL: llm.envFor("ollama").OLLAMA_BASE_URL as string,
      }),
      body: { model: "nomic-embed-text", input: expect.any(Array) },
    },
  ])(
    "ranks by embeddings with EMBEDDINGS_PROVIDER=$provider (its LangChain embeddings client against the test LLM)",
    async ({ provider, path, env, body }) => {
      const user = `dave-${provider}`;
      tokens[user] ??= await sign(user);
      agent = await start({ EMBEDDINGS_PROVIDER: provider, MEMORY_CONTEXT_TOKENS: "50", ...env() });
      const calls = llm.embeddingCalls.length;
      await say_(
        user,
        "remember that payments deploys go through the argocd app pay-api (topic: payments deploys)",
      );
      await say_(
        user,
        "remember that the weekly report lands in the ops confluence space (topic: weekly report)",
      );
      const stored = await mongo
        .db(dbName)
        .collection<{ value: { text: string; embedding?: number[] } }>("store_notes")
        .find({ namespaceStr: `memories/${subjectKey(user)}` })
        .toArray();
      expect(stored.map((doc) => doc.value.embedding?.length)).toEqual([64, 64]);
      const at = llm.requests.length;
      await say_(user, "where does the weekly report land?");
      const system = systemOf(llm.requests[at] as ChatCompletionRequest);
      // Room for one: the one the message is about.
      expect(system).toContain("the weekly report lands in the ops confluence space");
      expect(system).not.toContain("pay-api");
      // Two memories and the message, each over this provider's own protocol.
      const made = llm.embeddingCalls.slice(calls);
      expect(made.length).toBeGreaterThanOrEqual(3);
      for (const call of made) {
        expect(decodeURIComponent(call.path)).toBe(path);
        expect(call.body).toMatchObject(body);
      }
      if (provider === "aws-bedrock")
        expect(made[0]?.headers.authorization).toMatch(/\/us-west-2\/bedrock\/aws4_request/);
    },
  );

  it("fails at once with Bedrock's own words when the embeddings model id is wrong (a refusal is not retried)", async () => {
    const aws = llm.envFor("aws-bedrock");
    const embeddings = await createEmbeddings(
      { provider: "aws-bedrock", model: "amazon.titan-embedtext-v2:0" },
      aws as NodeJS.ProcessEnv,
    );
    const calls = llm.embeddingCalls.length;
    await expect(embeddings.embedQuery("where does the weekly report land?")).rejects.toThrow(
      "The provided model identifier is invalid.",
    );
    expect(llm.embeddingCalls.length - calls).toBe(1);
  });

  it("keeps the recalled memories within MAX_CONTEXT_TOKENS for a user with thousands of them", async () => {
    // Written as MongoDBStore writes items (3,000 upserts one by one would take minutes on the test server).
    const owner = subjectKey("alice");
    const now = new Date();
    await mongo
      .db(dbName)
      .collection("store_notes")
      .insertMany(
        Array.from({ length: 3_000 }, (_, i) => ({
          namespace: ["memories", owner],
          namespaceStr: `memories/${owner}`,
          key: `m${i}`,
          value: {
            text: `Service svc-${i} is owned by team-${i % 50} in the payments area`,
            topic: `svc-${i}`,
            source: "user",
            usedAt: now.getTime() - i,
          },
          createdAt: now,
          updatedAt: now,
        })),
      );
    const budget = 1_000;
    agent = await start({ MAX_CONTEXT_TOKENS: String(budget), MEMORY_MAX_PER_USER: "5000" });
    const at = llm.requests.length;
    await say_("alice", "who owns svc-2999?");
    const request = llm.requests[at] as ChatCompletionRequest;
    const system = systemOf(request);
    // The relevant one first, then the most recently used, as many as the share allows.
    expect(system).toContain("Service svc-2999 is owned by team-49");
    const all = request.messages.map((message) => messageText(message.content)).join("");
    expect(Math.ceil(all.length / 4)).toBeLessThanOrEqual(budget);
    expect(system.split("\n").filter((line) => line.startsWith("- Service")).length).toBeGreaterThan(1);
    // Memories take at most their share (an eighth of the budget by default).
    const block = system.slice(system.indexOf("What this user asked you to remember"));
    expect(Math.ceil(block.length / 4)).toBeLessThanOrEqual(budget / 8);
  });
});
