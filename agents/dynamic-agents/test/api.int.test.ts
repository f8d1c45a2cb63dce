import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { connectAgent } from "@switchboard/a2a-client";
import { AuthenticatedCaller, HopTokenIssuer } from "@switchboard/agent-runtime";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import { type AgentProcess, freePort, startAgentProcess } from "@switchboard-testing/test-agents";
import { hopKeys, type IdentityProvider, signIn, startIdentityProvider } from "@switchboard-testing/test-idp";
import {
  routeByAgentPrefix,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { testMongoEnv, uniqueDbName } from "@switchboard-testing/test-mongo";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { caipeAppConfig } from "./caipe-app-config.js";
import { hostPackageDir, startHost, writeConfig } from "./host-process.js";

/** A team's agent beside CAIPE's example ones: only team-b's members (and admins' policies) see it. */
const teamAgent = {
  id: "team-b-agent",
  name: "Team B",
  description: "Team B's own helper",
  system_prompt: "You help team B.",
  model_id: "gpt-4o-mini",
  model_provider: "azure-openai",
  visibility: "team",
  owner_team_slug: "team-b",
  allowed_tools: {},
  subagents: [],
  enabled: true,
};

/** A global agent that delegates to the team's agent (its agent_id): a hop for team-b's members alone. */
const relayAgent = {
  ...teamAgent,
  id: "relay-agent",
  name: "Relay",
  description: "Passes requests on",
  system_prompt: "You relay.",
  visibility: "global",
  owner_team_slug: undefined,
  // Called by a name of its own (its hop tokens are still for team-b-agent).
  subagents: [{ name: "board", description: "Team B's helper", agent_id: "team-b-agent" }],
};

describe("agents made, changed and used under policy", () => {
  const dir = scratchDir("dynamic-agents-api");
  const configFile = join(dir, "app-config.yaml");
  const dbName = uniqueDbName("dynamic_api");
  let llm: ScriptedLlm;
  let idp: IdentityProvider;
  let host: AgentProcess;
  let supervisor: AgentProcess;
  const keys = hopKeys();
  const tokens: Record<string, string> = {};
  const api = (path: string, token: string | undefined, init: RequestInit = {}) =>
    fetch(`${host.url}/api/v1${path}`, {
      ...init,
      headers: {
        "content-type": "application/json",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
    });
  const listed = async (token: string) =>
    (
      (await (
        await fetch(`${host.url}/agents`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as {
        agents: Array<{ id: string }>;
      }
    ).agents.map((agent) => agent.id);

  beforeAll(async () => {
    llm = await startScriptedLlm({
      script: rules([...routeByAgentPrefix()], say("Answered by a configured agent.")),
    });
    idp = await startIdentityProvider({
      users: {
        admin: { groups: ["employees", "platform-admins"] },
        dev: { groups: ["employees", "team-a"] },
        bee: { groups: ["employees", "team-b"] },
        outsider: { groups: [] },
      },
    });
    for (const user of ["admin", "dev", "bee", "outsider"]) tokens[user] = await signIn(idp, user);
    writeConfig(configFile, caipeAppConfig({ agents: [teamAgent, relayAgent] }));
    const auth = {
      AUTH_MODE: "jwt",
      AUTH_JWKS_URL: idp.jwksUrl,
      AUTH_ISSUER: idp.issuer,
      AUTH_AUDIENCE: idp.audience,
      RBAC_ADMIN_GROUPS: "platform-admins",
      OIDC_REQUIRED_GROUP: "employees",
    };
    // The URL the host gives its agents is the one the supervisor is pointed at (same origin).
    const port = await freePort();
    host = await startHost({
      ...testMongoEnv(dbName),
      PORT: String(port),
      AGENT_PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...llm.envFor("azure-openai"),
      APP_CONFIG_FILE: configFile,
      // CAIPE's example servers are not running here: the agents that allow them are refused, others serve.
      GITHUB_MCP_URL: "http://127.0.0.1:9/mcp",
      ARGOCD_MCP_URL: "http://127.0.0.1:9/mcp",
      RAG_SERVER_MCP_URL: "http://127.0.0.1:9/mcp",
      ...auth,
      AUTH_SUPERVISOR_PUBLIC_KEY: keys.AUTH_SUPERVISOR_PUBLIC_KEY,
      // The relay agent signs its hops (and reads its host subagents' cards) with the fleet's key.
      AUTH_HOP_SIGNING_KEY: keys.AUTH_HOP_SIGNING_KEY,
    });
    // The supervisor reads the host's whole directory with a token of its own (signed with its hop key).
    supervisor = await startAgentProcess(join(hostPackageDir, "..", "supervisor"), {
      env: {
        ...testMongoEnv(dbName),
        ...llm.envFor("azure-openai"),
        ...auth,
        ...keys,
        DYNAMIC_AGENTS_URL: host.url,
        DYNAMIC_AGENTS_POLL_SECONDS: "0.2",
      },
    });
  }, 120_000);

  afterAll(async () => {
    await supervisor?.kill("SIGTERM");
    await host?.kill("SIGTERM");
    await idp?.close();
    await llm?.close();
  });

  it("serves an agent made through the API at once, and not after it is deleted", async () => {
    const id = `api-${randomUUID().slice(0, 8)}`;
    const created = await api("/agents", tokens.admin, {
      method: "POST",
      body: JSON.stringify({
        id,
        name: "Made by API",
        description: "An agent made without code",
        system_prompt: "You answer briefly.",
        model_id: "gpt-4o-mini",
        model_provider: "azure-openai",
        visibility: "global",
        allowed_tools: {},
        subagents: [],
      }),
    });
    expect(created.status).toBeLessThan(300);
    const agent = await connectAgent(`${host.url}/agents/${id}`, { token: tokens.dev });
    const answer = await agent.send({ text: "hello", contextId: `ctx-${randomUUID()}` });
    expect(answer.state).toBe("completed");
    expect(answer.text).toContain("Answered by a configured agent.");
    expect(await listed(tokens.dev as string)).toContain(id);

    expect((await api(`/agents/${id}`, tokens.admin, { method: "DELETE" })).status).toBeLessThan(300);
    expect(await listed(tokens.dev as string)).not.toContain(id);
    expect((await fetch(`${host.url}/agents/${id}/.well-known/agent-card.json`)).status).toBe(404);
  });

  it("lets only those the policy allows create an agent", async () => {
    const body = JSON.stringify({
      id: "not-allowed",
      name: "Nope",
      description: "-",
      system_prompt: "-",
      model_id: "gpt-4o-mini",
      model_provider: "azure-openai",
      visibility: "global",
      allowed_tools: {},
      subagents: [],
    });
    expect((await api("/agents", tokens.dev, { method: "POST", body })).status).toBe(403);
    expect((await api("/agents", undefined, { method: "POST", body })).status).toBe(401);
    const forged = `${tokens.admin?.slice(0, -4)}AAAA`;
    expect((await api("/agents", forged, { method: "POST", body })).status).toBe(401);
    expect(await listed(tokens.admin as string)).not.toContain("not-allowed");
  });

  it("keeps a team's agent from users outside the team, and every agent from a user the policy refuses", async () => {
    expect(await listed(tokens.bee as string)).toContain("team-b-agent");
    expect(await listed(tokens.dev as string)).not.toContain("team-b-agent");
    const asDev = await fetch(`${host.url}/agents/team-b-agent/`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${tokens.dev}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: {} }),
    });
    expect(asDev.status).toBe(404);
    const bee = await connectAgent(`${host.url}/agents/team-b-agent`, { token: tokens.bee });
    expect((await bee.send({ text: "hi", contextId: `ctx-${randomUUID()}` })).state).toBe("completed");

    expect(await listed(tokens.outsider as string)).toEqual([]);
    const outsider = await connectAgent(`${host.url}/agents/default-agent`, { token: tokens.outsider });
    const refused = await outsider.send({ text: "hi", contextId: `ctx-${randomUUID()}` });
    expect(refused.state).toBe("failed");
    expect(refused.text).toContain("Not allowed");
    expect(llm.requests.some((request) => JSON.stringify(request).includes(refused.contextId))).toBe(false);
  });

  it("lists only the global agents to a caller without a token, as the supervisor reads the list", async () => {
    const anonymous = (await (await fetch(`${host.url}/agents`)).json()) as { agents: Array<{ id: string }> };
    const ids = anonymous.agents.map((agent) => agent.id);
    expect(ids).toContain("default-agent");
    expect(ids).not.toContain("team-b-agent");
    // Its A2A endpoint needs a token; without one nothing is told of a team's agent.
    const unsigned = await fetch(`${host.url}/agents/team-b-agent/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: {} }),
    });
    expect(unsigned.status).toBe(401);
    // Nor is whether it exists: an agent that does not is refused the same way, and so is a forged token.
    const forged = `${tokens.bee?.slice(0, -4)}AAAA`;
    const asked = async (id: string, token?: string) => {
      const answer = await fetch(`${host.url}/agents/${id}/`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: {} }),
      });
      return { status: answer.status, body: await answer.text() };
    };
    for (const token of [undefined, forged]) {
      const team = await asked("team-b-agent", token);
      expect(team.status).toBe(401);
      expect(await asked("no-such-agent", token)).toEqual(team);
    }
  });

  it("shows a team's agent's card to its members and the supervisor's directory alone, to anyone else as no agent", async () => {
    const card = async (id: string, token?: string) => {
      const answer = await fetch(`${host.url}/agents/${id}/.well-known/agent-card.json`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      return { status: answer.status, body: (await answer.text()).replaceAll(id, "<id>") };
    };
    const described = (answer: { body: string }) =>
      (JSON.parse(answer.body) as { description: string }).description;
    expect(described(await card("team-b-agent", tokens.bee))).toContain("Team B's own helper");
    const issuer = HopTokenIssuer.fromPem(keys.AUTH_HOP_SIGNING_KEY, "supervisor");
    const directory = await issuer.signDirectory("dynamic-agents");
    expect(described(await card("team-b-agent", directory))).toContain("Team B's own helper");
    expect((await card("no-such-agent", directory)).status).toBe(404);
    // A global agent's card stays anyone's, as a packaged agent's.
    expect((await card("default-agent")).status).toBe(200);

    // Outside the team, without a token, with a forged one, with the supervisor's hop token for
    // another agent or a directory token it did not sign: word for word an agent that does not exist.
    const claims = JSON.parse(Buffer.from(tokens.bee?.split(".")[1] ?? "", "base64url").toString());
    const hopElsewhere = await issuer.sign(
      new AuthenticatedCaller("bee", tokens.bee as string, claims),
      "default-agent",
    );
    const foreignDirectory = await HopTokenIssuer.fromPem(
      hopKeys().AUTH_HOP_SIGNING_KEY,
      "supervisor",
    ).signDirectory("dynamic-agents");
    const refusals = {
      outsideTheTeam: [tokens.dev, 404],
      noGroups: [tokens.outsider, 404],
      anonymous: [undefined, 404],
      forged: [`${tokens.bee?.slice(0, -4)}AAAA`, 401],
      hopForAnotherAgent: [hopElsewhere, 401],
      foreignDirectory: [foreignDirectory, 401],
    } as const;
    for (const [who, [token, status]] of Object.entries(refusals)) {
      const team = await card("team-b-agent", token);
      expect({ who, status: team.status }).toEqual({ who, status });
      expect(team.body).not.toContain("Team B");
      expect({ who, ...(await card("no-such-agent", token)) }).toEqual({ who, ...team });
    }
  });

  it("lets a configured agent delegate to a team's agent of the host for the team's members alone", async () => {
    const seen = (...parts: string[]) =>
      llm.requests.some((request) => parts.every((part) => JSON.stringify(request).includes(part)));
    const ask = async (user: string) => {
      const said = `what is on our board? ${randomUUID()}`;
      const relay = await connectAgent(`${host.url}/agents/relay-agent`, { token: tokens[user] as string });
      const answer = await relay.send({
        text: `forward to board: ${said}`,
        contextId: `ctx-${randomUUID()}`,
      });
      return {
        answer,
        offered: seen("You relay.", said, "- board: Team B"),
        reachedTeam: seen("You help team B.", said),
      };
    };
    // Its card read with the host's directory token (on loopback), the team's agent joins the relay's roster.
    await vi.waitFor(async () => expect((await ask("bee")).reachedTeam).toBe(true), {
      timeout: 15_000,
      interval: 200,
    });
    const bee = await ask("bee");
    expect(bee).toMatchObject({ offered: true, reachedTeam: true });
    expect(bee.answer.text).toBe("Answered by a configured agent.");
    // dev is not told of it, and nothing is sent to it for dev.
    const dev = await ask("dev");
    expect(dev).toMatchObject({ offered: false, reachedTeam: false });
    expect(dev.answer.text).toContain('No agent named "board" is enabled');
  });

  it("puts a team's agent on the supervisor's roster for the team's members alone", async () => {
    const onRoster = async (user: string) =>
      (
        (await (
          await fetch(`${supervisor.url}/subagents`, { headers: { authorization: `Bearer ${tokens[user]}` } })
        ).json()) as { subagents: Array<{ name: string }> }
      ).subagents.map(({ name }) => name);
    await expect.poll(() => onRoster("bee"), { timeout: 15_000 }).toContain("team-b-agent");
    expect(await onRoster("bee")).toContain("default-agent");
    expect(await onRoster("dev")).toContain("default-agent");
    expect(await onRoster("dev")).not.toContain("team-b-agent");

    const ask = async (user: string) =>
      (await connectAgent(supervisor.url, { token: tokens[user] as string })).send({
        text: "forward to team-b-agent: what is on our board?",
        contextId: `ctx-${randomUUID()}`,
      });
    const bee = await ask("bee");
    expect(bee.state).toBe("completed");
    expect(bee.text).toBe("Answered by a configured agent.");
    // Not for dev: the supervisor neither offers it nor calls it.
    const dev = await ask("dev");
    expect(dev.text).toContain('No agent named "team-b-agent" is enabled');
    const toTeamAgent = llm.requests.filter(
      (request) =>
        JSON.stringify(request).includes("You help team B.") &&
        JSON.stringify(request).includes(dev.contextId),
    );
    expect(toTeamAgent).toEqual([]);
  });

  it("opens the whole directory to the supervisor's own token alone, and that token to nothing else", async () => {
    const directory = (token: string) =>
      fetch(`${host.url}/agents`, { headers: { authorization: `Bearer ${token}` } });
    const issuer = HopTokenIssuer.fromPem(keys.AUTH_HOP_SIGNING_KEY, "supervisor");
    const token = await issuer.signDirectory("dynamic-agents");
    const whole = (await (await directory(token)).json()) as {
      agents: Array<{ id: string; teams?: string[] }>;
    };
    expect(whole.agents.find((agent) => agent.id === "team-b-agent")?.teams).toEqual(["team-b"]);
    expect(whole.agents.find((agent) => agent.id === "default-agent")).not.toHaveProperty("teams");

    // Signed with another key, or for another host: refused, saying why.
    const forged = await HopTokenIssuer.fromPem(hopKeys().AUTH_HOP_SIGNING_KEY, "supervisor").signDirectory(
      "dynamic-agents",
    );
    const refused = await directory(forged);
    expect(refused.status).toBe(401);
    expect(await refused.text()).toContain("not signed with the supervisor's key");
    const elsewhere = await directory(await issuer.signDirectory("another-host"));
    expect(elsewhere.status).toBe(401);
    expect(await elsewhere.text()).toContain("meant for another host");

    // It names no caller: the API and the agents refuse it.
    expect((await api("/agents", token)).status).toBe(401);
    const asAgent = await fetch(`${host.url}/agents/team-b-agent/`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: {} }),
    });
    expect(asAgent.status).toBe(401);
    // A user's own token still lists only what that user may reach.
    expect(await listed(tokens.dev as string)).not.toContain("team-b-agent");
  });

  it("refuses a hostile definition that would take a packaged agent's collections and policies", async () => {
    const hostile = await api("/agents", tokens.admin, {
      method: "POST",
      body: JSON.stringify({
        id: "jira",
        name: "Not Jira",
        description: "Writes into tasks_jira and audit_jira",
        system_prompt: "-",
        model_id: "gpt-4o-mini",
        model_provider: "azure-openai",
        visibility: "global",
        allowed_tools: {},
        subagents: [],
      }),
    });
    expect(hostile.status).toBeGreaterThanOrEqual(400);
    expect(hostile.status).toBeLessThan(500);
    expect(await hostile.text()).toContain("jira");
    expect((await fetch(`${host.url}/agents/jira/.well-known/agent-card.json`)).status).toBe(404);
  });

  it("keeps the last good agent when an edit of the file breaks it, and says why naming the field", async () => {
    const broken = caipeAppConfig({
      agents: [{ ...teamAgent, model_provider: "not-a-provider" }],
    });
    writeConfig(configFile, broken);
    await vi.waitFor(
      () => {
        expect(host.logs()).toMatch(/team-b-agent[^\n]*model/);
      },
      { timeout: 15_000, interval: 100 },
    );
    const bee = await connectAgent(`${host.url}/agents/team-b-agent`, { token: tokens.bee });
    expect((await bee.send({ text: "still there?", contextId: `ctx-${randomUUID()}` })).state).toBe(
      "completed",
    );
    // The others were not touched: CAIPE's example agent still answers.
    const dev = await connectAgent(`${host.url}/agents/default-agent`, { token: tokens.dev });
    expect((await dev.send({ text: "hi", contextId: `ctx-${randomUUID()}` })).state).toBe("completed");
    expect(readFileSync(configFile, "utf8")).toContain("not-a-provider");
  });

  it("replaces an agent whose definition changed in the file, leaving the others untouched", async () => {
    const dev = await connectAgent(`${host.url}/agents/default-agent`, { token: tokens.dev });
    const contextId = `ctx-${randomUUID()}`;
    expect((await dev.send({ text: "first", contextId })).state).toBe("completed");
    writeConfig(
      configFile,
      caipeAppConfig({
        agents: [{ ...teamAgent, description: "Team B's helper, revised" }],
      }),
    );
    await vi.waitFor(
      async () => {
        const card = (await (
          await fetch(`${host.url}/agents/team-b-agent/.well-known/agent-card.json`, {
            headers: { authorization: `Bearer ${tokens.bee}` },
          })
        ).json()) as {
          description: string;
        };
        expect(card.description).toContain("revised");
      },
      { timeout: 15_000, interval: 100 },
    );
    const bee = await connectAgent(`${host.url}/agents/team-b-agent`, { token: tokens.bee });
    expect((await bee.send({ text: "hi again", contextId: `ctx-${randomUUID()}` })).state).toBe("completed");
    // CAIPE's example agent was not rebuilt: served once, and its conversation goes on.
    expect(host.logs().match(/"agentId":"default-agent"[^\n]*"msg":"agent (served|replaced)"/g)).toHaveLength(
      1,
    );
    expect((await dev.send({ text: "second", contextId })).state).toBe("completed");
  });
});
