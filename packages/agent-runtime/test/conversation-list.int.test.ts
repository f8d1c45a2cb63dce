import { randomUUID } from "node:crypto";
import { ClientFactory } from "@a2a-js/sdk/client";
import { rules, type ScriptedLlm, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { SignJWT } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ConversationHistory, ConversationSummary } from "../src/conversations/history.js";
import type { RunningAgent } from "../src/serve.js";
import { send } from "./a2a.js";
import { serveNotesAgent } from "./notes-agent.js";

const SECRET = "switchboard-test-secret-of-at-least-32-chars";

function token(sub: string): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256" })
    .setIssuer("switchboard-test")
    .setAudience("switchboard")
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(new TextEncoder().encode(SECRET));
}

describe("a caller's conversations (GET /conversations, GET /conversations/:contextId)", () => {
  let llm: ScriptedLlm;
  let agent: RunningAgent | undefined;

  beforeAll(async () => {
    llm = await startScriptedLlm({ script: rules([], say("Noted.")) });
  });
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
  });
  afterAll(async () => {
    await llm.close();
  });

  const caller = async (url: string, sub: string) => {
    const bearer = await token(sub);
    const client = await new ClientFactory().createFromUrl(url);
    const headers = { authorization: `Bearer ${bearer}` };
    return {
      say: (text: string, contextId: string) =>
        send(client, text, contextId, "", { serviceParameters: { Authorization: `Bearer ${bearer}` } }),
      list: async () => {
        const response = await fetch(`${url}/conversations`, { headers });
        expect(response.status).toBe(200);
        return ((await response.json()) as { conversations: ConversationSummary[] }).conversations;
      },
      read: (contextId: string) => fetch(`${url}/conversations/${contextId}`, { headers }),
    };
  };

  it("lists and reads only the caller's own, scoped as threads are, even under a shared contextId", async () => {
    agent = await serveNotesAgent({
      llm,
      dbName: `conversations-${randomUUID().slice(0, 8)}`,
      env: {
        AUTH_MODE: "jwt",
        AUTH_JWT_SECRET: SECRET,
        AUTH_ISSUER: "switchboard-test",
        AUTH_AUDIENCE: "switchboard",
      },
    });
    const alice = await caller(agent.url, "alice@example.com");
    const bob = await caller(agent.url, "bob@example.com");
    const shared = `shared-${randomUUID()}`;
    const bobsOwn = `bob-${randomUUID()}`;
    await alice.say("alice's first message", shared);
    await alice.say("alice's second message", shared);
    await bob.say("bob under the same id", shared);
    await bob.say("bob's other conversation", bobsOwn);

    expect(await alice.list()).toEqual([
      {
        contextId: shared,
        title: "alice's first message",
        updatedAt: expect.any(String),
        tasks: 2,
        state: "completed",
      },
    ]);
    const bobs = await bob.list();
    expect(bobs.map((conversation) => [conversation.contextId, conversation.title])).toEqual([
      [bobsOwn, "bob's other conversation"],
      [shared, "bob under the same id"],
    ]);

    const history = (await (await alice.read(shared)).json()) as ConversationHistory;
    expect(history.title).toBe("alice's first message");
    expect(history.tasks.map((task) => [task.state, task.messages[0]?.text, task.answer])).toEqual([
      ["completed", "alice's first message", "Noted."],
      ["completed", "alice's second message", "Noted."],
    ]);
    expect(JSON.stringify(history)).not.toContain("bob");
    // Someone else's conversation is not there for them, as their thread would not be.
    const foreign = await alice.read(bobsOwn);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ error: `You have no conversation ${bobsOwn}.` });
  });

  it("refuses callers without a token, and lists nothing for a new caller", async () => {
    agent = await serveNotesAgent({
      llm,
      dbName: `conversations-${randomUUID().slice(0, 8)}`,
      env: {
        AUTH_MODE: "jwt",
        AUTH_JWT_SECRET: SECRET,
        AUTH_ISSUER: "switchboard-test",
        AUTH_AUDIENCE: "switchboard",
      },
    });
    for (const path of ["/conversations", "/conversations/anything"]) {
      expect((await fetch(`${agent.url}${path}`)).status).toBe(401);
    }
    const carol = await caller(agent.url, "carol@example.com");
    expect(await carol.list()).toEqual([]);
    expect((await carol.read("nothing-here")).status).toBe(404);
  });

  it("works without MongoDB too (the in-memory task store), and serves no /subagents for a plain agent", async () => {
    agent = await serveNotesAgent({ llm, env: { LANGGRAPH_CHECKPOINT_TYPE: "memory" } });
    const contextId = `memory-${randomUUID()}`;
    const client = await new ClientFactory().createFromUrl(agent.url);
    await send(client, "kept in memory", contextId);
    const listed = (await (await fetch(`${agent.url}/conversations`)).json()) as {
      conversations: ConversationSummary[];
    };
    expect(listed.conversations.map((conversation) => conversation.title)).toEqual(["kept in memory"]);
    // GET /subagents is the supervisor's own route: an agent without subagents has none.
    expect((await fetch(`${agent.url}/subagents`)).status).toBe(404);
  });
});
