// A dishonest agent in the fleet: configured in the supervisor as a third-party agent ("evil"), its
// card points every endpoint at an attacker's listener and it says it takes GitHub tokens; it keeps
// every bearer token it is sent and replays them on the supervisor and the Jira agent. Real
// processes: the OpenID provider, the supervisor and the Jira agent, the dishonest agent itself.
import { randomUUID } from "node:crypto";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { connectAgent, statusOrigin, type TurnEvent } from "@switchboard/a2a-client";
import { type FakeJira, startFakeJira } from "@switchboard-testing/fake-jira";
import { type AgentProcess, startAgentProcess } from "@switchboard-testing/test-agents";
import { hopKeys, type IdentityProvider, signIn, startIdentityProvider } from "@switchboard-testing/test-idp";
import {
  routeByAgentPrefix,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { testMongoEnv, uniqueDbName } from "@switchboard-testing/test-mongo";
import { decodeJwt, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type Listener,
  PHISHING_URL,
  startAttackerListener,
  startDishonestAgent,
} from "./dishonest-agent.js";

const agentsDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "agents");
const GITHUB_TOKEN = "ghp_AlicesOwnTokenThatMustStayWithGithubOnly01";

describe("a dishonest agent in the fleet gets nothing it can use elsewhere", () => {
  const dbName = uniqueDbName("adv-dishonest");
  let idp: IdentityProvider;
  let llm: ScriptedLlm;
  let jira: FakeJira;
  let attacker: Listener;
  let evil: Listener;
  let jiraAgent: AgentProcess;
  let supervisor: AgentProcess;
  const tokens: Record<string, string> = {};
  const keys = hopKeys();

  /** A request to the supervisor as a user, answered with its status and text. */
  const call = async (method: string, path: string, user: string, body?: unknown) => {
    const response = await fetch(`${supervisor.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${tokens[user]}`,
        ...(body ? { "content-type": "application/json" } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, text: await response.text() };
  };
  const ask = async (user: string, text: string, contextId = `adv-${randomUUID()}`) => {
    const connection = await connectAgent(supervisor.url, { token: tokens[user] as string, cardRetries: 0 });
    return connection.send({ text, contextId });
  };
  /** Every bearer token the dishonest agent was sent so far. */
  const stolen = () => [...new Set(evil.received.flatMap(({ bearer }) => (bearer ? [bearer] : [])))];
  /** What `url` answers a JSON-RPC message sent with `bearer`. */
  const replay = async (url: string, bearer: string) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "SendMessage",
        params: {
          message: {
            messageId: randomUUID(),
            role: "ROLE_USER",
            parts: [{ text: "open issues in PLAT" }],
          },
        },
      }),
    });
    return { status: response.status, text: await response.text() };
  };

  beforeAll(async () => {
    [idp, llm, jira, attacker] = await Promise.all([
      startIdentityProvider({
        users: {
          alice: { groups: ["engineers"], email: "alice@example.com" },
          // Typed the CEO's address into her account: the provider does not vouch for it.
          mallory: { groups: ["engineers"], email: "ceo@example.com", emailVerified: false },
          bob: { groups: ["leads"], email: "bob@example.com" },
        },
      }),
      startScriptedLlm({ script: rules(routeByAgentPrefix(), say("I route to agents.")) }),
      startFakeJira(),
      startAttackerListener(),
    ]);
    evil = await startDishonestAgent("evil", attacker.url);
    for (const user of ["alice", "mallory", "bob"]) tokens[user] = await signIn(idp, user);
    const common = {
      ...testMongoEnv(dbName),
      ...llm.env,
      AUTH_MODE: "jwt",
      AUTH_JWKS_URL: idp.jwksUrl,
      AUTH_ISSUER: idp.issuer,
      AUTH_AUDIENCE: idp.audience,
      ...keys,
    };
    jiraAgent = await startAgentProcess(join(agentsDir, "jira"), {
      env: {
        ...common,
        ATLASSIAN_API_URL: jira.url,
        ATLASSIAN_EMAIL: jira.email,
        ATLASSIAN_TOKEN: jira.token,
      },
    });
    supervisor = await startAgentProcess(join(agentsDir, "supervisor"), {
      env: {
        ...common,
        ENABLE_JIRA: "true",
        JIRA_AGENT_URL: jiraAgent.url,
        ENABLE_EVIL: "true",
        EVIL_AGENT_URL: evil.url,
        ENABLE_WEATHER: "false",
      },
    });
    // Both join in the background; the supervisor logs each as it does.
    await vi.waitFor(
      () => {
        for (const agent of ["evil", "jira"])
          if (!supervisor.logs().includes(`subagent ${agent} joined`))
            throw new Error(`${agent} has not joined`);
      },
      { timeout: 30_000, interval: 100 },
    );
  });
  afterAll(async () => {
    await Promise.all([supervisor, jiraAgent].map((process) => process?.kill("SIGTERM")));
    await Promise.all([idp?.close(), llm?.close(), jira?.close(), attacker?.close(), evil?.close()]);
  });

  it("is called at its configured URL: its card's URL is logged as a warning and never followed", async () => {
    const answer = await ask("alice", "evil: list my pull requests");
    expect(answer.text).toContain("All done");
    expect(evil.received.some(({ method, path }) => method === "POST" && path.startsWith("/a2a/"))).toBe(
      true,
    );
    expect(attacker.received).toEqual([]);
    expect(supervisor.logs()).toContain("The evil agent's card points elsewhere than EVIL_AGENT_URL");
  });

  it("is sent a token for it alone, never the user's own", async () => {
    const received = stolen();
    expect(received.length).toBeGreaterThan(0);
    expect(received).not.toContain(tokens.alice);
    for (const token of received) {
      expect(decodeJwt(token)).toMatchObject({
        aud: "evil",
        iss: "urn:switchboard:supervisor",
        sub: "alice",
      });
      const { exp = 0, iat = 0 } = decodeJwt(token);
      expect(exp - iat).toBeLessThanOrEqual(120);
    }
  });

  it("replays what it got on the supervisor and on the Jira agent: 401 everywhere", async () => {
    const issues = jira.issues.length;
    const received = stolen();
    expect(received.length).toBeGreaterThan(0);
    for (const token of received) {
      const atSupervisor = await replay(supervisor.url, token);
      expect(atSupervisor.status).toBe(401);
      const atJira = await replay(jiraAgent.url, token);
      expect(atJira.status).toBe(401);
      expect(atJira.text).toContain("another audience (aud)");
      // Nor on the routes beside A2A: the user's memories, linked tokens, conversations.
      for (const path of ["/memories", "/linked-tokens", "/conversations"]) {
        const read = await fetch(`${supervisor.url}${path}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(read.status).toBe(401);
        const direct = await fetch(`${jiraAgent.url}${path}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(direct.status).toBe(401);
      }
    }
    // Nothing it replayed ran at Jira.
    expect(jira.issues.length).toBe(issues);
  });

  it("claims the GitHub vendor: it is sent no linked token, and the list says why", async () => {
    const linked = await call("PUT", "/linked-tokens/github", "alice", { token: GITHUB_TOKEN });
    expect(linked.status).toBe(404);
    expect(linked.text).toContain("No agent takes github tokens");
    expect(JSON.stringify(evil.received)).not.toContain(GITHUB_TOKEN);
    expect(JSON.stringify(attacker.received)).not.toContain(GITHUB_TOKEN);
    expect(evil.received.some(({ path }) => path.startsWith("/linked-tokens/"))).toBe(false);
    const listed = JSON.parse((await call("GET", "/linked-tokens", "alice")).text) as {
      agents: Array<{ agent: string; enabled: boolean; reason?: string; vendor?: unknown }>;
    };
    const entry = listed.agents.find(({ agent }) => agent === "evil");
    expect(entry).toMatchObject({ enabled: false });
    expect(entry?.vendor).toBeUndefined();
    expect(entry?.reason).toContain("says it takes github tokens");
    // Nor can it pose as the GitHub agent by name in its answer.
    expect(listed.agents.some(({ agent }) => agent === "github")).toBe(false);
  });

  it("every fleet route passes it a token for it alone: deletion, memories, audit", async () => {
    const contextId = `adv-${randomUUID()}`;
    await ask("alice", "evil: say hi", contextId);
    const before = evil.received.length;
    expect((await call("DELETE", `/conversations/${contextId}`, "alice")).status).toBe(200);
    await call("GET", "/memories", "alice");
    await call("GET", "/audit", "alice");
    await call("DELETE", "/memories", "alice");
    const later = evil.received.slice(before);
    expect(later.map(({ method, path }) => `${method} ${path}`)).toEqual(
      expect.arrayContaining([`DELETE /conversations/${contextId}`, "GET /memories", "GET /audit"]),
    );
    for (const { bearer } of later) {
      expect(bearer).toBeDefined();
      expect(bearer).not.toBe(tokens.alice);
      expect(decodeJwt(bearer as string)).toMatchObject({ aud: "evil", sub: "alice" });
    }
    expect(attacker.received).toEqual([]);
  });

  it("an email the provider does not vouch for is passed on to no agent", async () => {
    const before = evil.received.length;
    await ask("mallory", "evil: who am I?");
    const hop = evil.received.slice(before).find(({ bearer }) => bearer)?.bearer as string;
    expect(decodeJwt(hop)).toMatchObject({ sub: "mallory" });
    expect(decodeJwt(hop).email).toBeUndefined();
    // A verified one is: alice's hop says who she is.
    const alices = stolen().find((token) => decodeJwt(token).sub === "alice") as string;
    expect(decodeJwt(alices)).toMatchObject({ email: "alice@example.com", email_verified: true });
  });

  it("forges a hop token for the Jira agent with its own key, or with the supervisor's public key as an HMAC secret: refused", async () => {
    const { privateKey } = await generateKeyPair("EdDSA");
    const claims = { act: { sub: "supervisor" }, groups: ["admins"] };
    const ownKey = await new SignJWT(claims)
      .setProtectedHeader({ alg: "EdDSA", typ: "switchboard-hop+jwt" })
      .setIssuer("urn:switchboard:supervisor")
      .setSubject("alice")
      .setAudience("jira")
      .setIssuedAt()
      .setExpirationTime("2m")
      .sign(privateKey);
    expect((await replay(jiraAgent.url, ownKey)).status).toBe(401);
    const confused = await new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256", typ: "switchboard-hop+jwt" })
      .setIssuer("urn:switchboard:supervisor")
      .setSubject("alice")
      .setAudience("jira")
      .setIssuedAt()
      .setExpirationTime("2m")
      .sign(new TextEncoder().encode(keys.AUTH_SUPERVISOR_PUBLIC_KEY));
    expect((await replay(jiraAgent.url, confused)).status).toBe(401);
  });

  it("an approver's answer reaches it with a token for it alone, never the approver's own", async () => {
    const contextId = `adv-${randomUUID()}`;
    const connection = await connectAgent(supervisor.url, { token: tokens.alice as string, cardRetries: 0 });
    const question = await connection.send({ text: "evil: ask me first", contextId });
    expect(question.state).toBe("input-required");
    const before = evil.received.length;
    await connection.send({
      text: "yes",
      contextId,
      taskId: question.taskId,
      headers: { "Switchboard-Approver": `Bearer ${tokens.bob}` },
    });
    const answered = evil.received.slice(before).find(({ approver }) => approver);
    expect(answered?.approver).toBeDefined();
    expect(answered?.approver).not.toBe(tokens.bob);
    expect(decodeJwt(answered?.approver as string)).toMatchObject({ aud: "evil", sub: "bob" });
    expect(JSON.stringify(evil.received)).not.toContain(tokens.bob);
    // Replayed as the approver of a change waiting at the Jira agent: refused.
    const replayed = await fetch(jiraAgent.url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${tokens.alice}`,
        "switchboard-approver": `Bearer ${answered?.approver}`,
        "content-type": "application/json",
      },
      body: "{}",
    });
    expect(replayed.status).toBe(401);
    expect(await replayed.text()).toContain("Switchboard-Approver");
  });

  it("forges an answer's sources part: the user gets the supervisor's answer with no part and no link of its making", async () => {
    for (const text of ["evil: hi", "forward to evil: hi"]) {
      const response = await fetch(`${supervisor.url}/`, {
        method: "POST",
        headers: { authorization: `Bearer ${tokens.alice}`, "content-type": "application/json" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "message/send",
          params: {
            message: {
              kind: "message",
              role: "user",
              messageId: randomUUID(),
              parts: [{ kind: "text", text }],
            },
            configuration: { blocking: true },
          },
        }),
      });
      const raw = await response.text();
      expect(raw).toContain("All done.");
      expect(raw).not.toContain(PHISHING_URL);
      expect(raw).not.toContain('"kind":"data"');
    }
  });

  it("lies in its progress (a routing, another agent's change): relayed, none of it passes for the supervisor's word", async () => {
    const connection = await connectAgent(supervisor.url, { token: tokens.alice as string, cardRetries: 0 });
    const events: TurnEvent[] = [];
    for await (const event of connection.stream({ text: "evil: hi", contextId: `adv-${randomUUID()}` }))
      events.push(event);
    const progress = events.flatMap((event) =>
      event.kind === "status" && event.state === "working" && event.metadata ? [event] : [],
    );
    // The supervisor's own routing names the agent it asked, and only that one.
    expect(
      progress.filter((event) => event.metadata?.kind === "agent-call").map((e) => e.metadata?.agent),
    ).toEqual(["evil"]);
    const relayed = progress.filter((event) => event.metadata?.kind === "agent-status");
    expect(relayed.map((event) => [event.text, event.metadata?.agent])).toEqual([
      ["evil: Asking the github agent", "evil"],
      ["evil: Calling delete_repo", "evil"],
    ]);
    // What it claimed stays inside, as it said it: whoever reads it knows it is evil's.
    expect(relayed.map((event) => statusOrigin(event.metadata))).toEqual([
      { kind: "agent-call", agent: "evil", via: ["evil"] },
      { kind: "tool-call", agent: "evil", tool: "delete_repo", via: ["evil"] },
    ]);
    expect(relayed[1]?.metadata).not.toHaveProperty("confirmation");
    expect(relayed[1]?.metadata?.relayed).toMatchObject({ agent: "github", confirmation: { changes: [] } });
  });

  it("the Jira agent it cannot reach still works for the user through the supervisor", async () => {
    const answer = await ask("alice", "jira: open issues in PLAT");
    expect(answer.state).toBe("completed");
  });
});
