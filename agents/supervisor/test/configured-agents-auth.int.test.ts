// Configured agents under AUTH_MODE=jwt: the supervisor calls them as any subagent, with a hop
// token for each alone and its own `reach` policy (Cedar), and reads their listing with a directory
// token of its own, which carries no user's identity.
// Real parts: the OpenID provider, a host-like server with agents served by the runtime behind it,
// the supervisor as a process.
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { connectAgent } from "@switchboard/a2a-client";
import { type AgentDefinition, type RunningAgent, serveAgent } from "@switchboard/agent-runtime";
import { createLogger } from "@switchboard/common";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import { type AgentProcess, freePort } from "@switchboard-testing/test-agents";
import { hopKeys, type IdentityProvider, signIn, startIdentityProvider } from "@switchboard-testing/test-idp";
import {
  routeByAgentPrefix,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { testMongoEnv, testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConfiguredHost, startConfiguredHost } from "./configured-host.js";
import { startAgent } from "./fleet.js";

// Everyone signed in may reach every agent, but contractors not the configured reviewer.
const POLICY = `
@id("signed-in-work")
permit(principal, action in [Switchboard::Action::"reach", Switchboard::Action::"read", Switchboard::Action::"change"], resource)
when { principal.authenticated };

@id("contractors-no-reviewer")
forbid(principal in Switchboard::Group::"contractors", action == Switchboard::Action::"reach", resource == Switchboard::Agent::"reviewer");
`;

const agentDefinition = (name: string, prompt: string): AgentDefinition => ({
  name,
  title: name,
  description: `Does ${name} things.`,
  systemPrompt: prompt,
  skills: [{ id: name, name, description: `${name} work`, tags: [name], examples: [] }],
  tools: () => [],
});

describe("configured agents are called with the supervisor's hop credentials and reach policy", () => {
  const dbName = uniqueDbName("configured-auth");
  const policyFile = join(scratchDir("configured-auth"), "policies.cedar");
  let idp: IdentityProvider;
  let llm: ScriptedLlm;
  let host: ConfiguredHost;
  let supervisor: AgentProcess;
  const agents: RunningAgent[] = [];
  const targets: Record<string, string> = {};
  const tokens: Record<string, string> = {};
  const keys = hopKeys();

  beforeAll(async () => {
    writeFileSync(policyFile, POLICY);
    [idp, llm] = await Promise.all([
      startIdentityProvider({ users: { alice: { groups: ["staff"] }, carol: { groups: ["contractors"] } } }),
      startScriptedLlm({
        script: rules(
          [
            ...routeByAgentPrefix(),
            { system: "PROMPT-REVIEWER", reply: say("Reviewer here: the change looks right.") },
            { system: "PROMPT-DOCS", reply: say("Docs here.") },
          ],
          say("Tell me which agent to ask."),
        ),
      }),
    ]);
    host = await startConfiguredHost(targets);
    for (const user of ["alice", "carol"]) tokens[user] = await signIn(idp, user);
    const auth = {
      ...testMongoEnv(dbName),
      ...llm.env,
      AUTH_MODE: "jwt",
      AUTH_JWKS_URL: idp.jwksUrl,
      AUTH_ISSUER: idp.issuer,
      AUTH_AUDIENCE: idp.audience,
      AUTH_SUPERVISOR_PUBLIC_KEY: keys.AUTH_SUPERVISOR_PUBLIC_KEY,
    };
    const serve = (name: string, prompt: string) =>
      serveAgent(agentDefinition(name, prompt), {
        env: { ...auth, PORT: "0", HOST: "127.0.0.1", AGENT_PUBLIC_URL: `${host.url}/agents/${name}` },
        logger: createLogger({ level: "silent" }),
      });
    agents.push(...(await Promise.all([serve("reviewer", "PROMPT-REVIEWER"), serve("docs", "PROMPT-DOCS")])));
    Object.assign(targets, { reviewer: agents[0]?.url, docs: agents[1]?.url });
    host.list(
      ["reviewer", "docs"].map((id) => ({ id, name: id, description: id, url: `${host.url}/agents/${id}` })),
    );
    supervisor = await startAgent("supervisor", await freePort(), {
      ...auth,
      ...keys,
      LOG_LEVEL: "warn",
      AUTHZ_POLICY_FILE: policyFile,
      DYNAMIC_AGENTS_URL: host.url,
      DYNAMIC_AGENTS_POLL_SECONDS: "0.05",
    });
  });
  afterAll(async () => {
    await supervisor?.kill("SIGTERM");
    await Promise.all(agents.map((agent) => agent.close()));
    const mongo = await MongoClient.connect(testMongoUri());
    await mongo.db(dbName).dropDatabase();
    await mongo.close();
    await Promise.all([host?.close(), llm?.close(), idp?.close()]);
  });

  const subagents = async (user: string) =>
    (
      (await (
        await fetch(`${supervisor.url}/subagents`, { headers: { authorization: `Bearer ${tokens[user]}` } })
      ).json()) as { subagents: Array<{ name: string; status: string }> }
    ).subagents.map(({ name, status }) => `${name}:${status}`);
  const ask = async (user: string, text: string) => {
    const connection = await connectAgent(supervisor.url, { token: tokens[user] as string });
    return (await connection.send({ text, contextId: `conv-${randomUUID()}` })).text;
  };
  const bearersTo = (id: string) => (host.bearers.get(id) ?? []).filter((bearer) => bearer !== undefined);

  it("a user the policy allows reaches a configured agent, which gets a token signed for it alone", async () => {
    await expect.poll(() => subagents("alice")).toEqual(["reviewer:available", "docs:available"]);
    const before = bearersTo("reviewer").length;
    expect(await ask("alice", "forward to reviewer: review pull request 7")).toBe(
      "Reviewer here: the change looks right.",
    );
    const sent = bearersTo("reviewer").slice(before);
    expect(sent.length).toBeGreaterThan(0);
    for (const bearer of sent) {
      const token = (bearer as string).replace(/^Bearer /, "");
      expect(token).not.toBe(tokens.alice);
      expect(decodeJwt(token)).toMatchObject({
        sub: "alice",
        aud: "reviewer",
        iss: "urn:switchboard:supervisor",
      });
    }
    // The listing is read with the supervisor's own directory token, for the host alone: no user's.
    const listingBearers = bearersTo("");
    expect(listingBearers.length).toBeGreaterThan(0);
    for (const bearer of listingBearers) {
      const token = (bearer as string).replace(/^Bearer /, "");
      expect(decodeProtectedHeader(token).typ).toBe("switchboard-directory+jwt");
      expect(decodeJwt(token)).toMatchObject({
        sub: "supervisor",
        aud: "dynamic_agents",
        iss: "urn:switchboard:supervisor",
      });
      expect(decodeJwt(token)).not.toHaveProperty("groups");
    }
  });

  it("the token a configured agent was sent is refused by another configured agent", async () => {
    const stolen = (bearersTo("reviewer").at(-1) as string).replace(/^Bearer /, "");
    const docs = await connectAgent(`${host.url}/agents/docs`, { token: stolen, cardRetries: 0 });
    await expect(docs.send({ text: "hello", contextId: `conv-${randomUUID()}` })).rejects.toThrow(
      "the token was issued for another audience (aud): it is not meant for this agent",
    );
  });

  it("a user the policy keeps from a configured agent neither sees it nor reaches it", async () => {
    expect(await subagents("carol")).toEqual(["docs:available"]);
    const before = (host.bearers.get("reviewer") ?? []).length;
    expect(await ask("carol", "reviewer: review pull request 8")).toContain(
      'No agent named "reviewer" is enabled',
    );
    expect((host.bearers.get("reviewer") ?? []).length).toBe(before);
    expect(await ask("carol", "forward to docs: write the page")).toBe("Docs here.");
  });
});
