import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createLogger } from "@switchboard/common";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import { type IdentityProvider, signIn, startIdentityProvider } from "@switchboard-testing/test-idp";
import { rules, type ScriptedLlm, startScriptedLlm } from "@switchboard-testing/test-llm";
import { testMongoEnv, testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditEntry, ChainedEntry } from "../src/audit/entry.js";
import { MongoAuditLog } from "../src/audit/mongo-audit-log.js";
import type { AgentDefinition } from "../src/definition.js";
import { type RunningAgent, serveAgent } from "../src/serve.js";
import { testAuditKey } from "./audit-lines.js";

const deskAgent: AgentDefinition = {
  name: "desk",
  title: "Desk",
  description: "Files tickets.",
  systemPrompt: "You work the ticket desk.",
  skills: [{ id: "desk", name: "Desk", description: "Tickets", tags: ["tickets"], examples: ["file"] }],
  tools: () => [],
};

const POLICY = `
@id("staff-reach")
permit(principal, action == Switchboard::Action::"reach", resource);

@id("admins-audit")
permit(principal in Switchboard::Group::"admins", action == Switchboard::Action::"audit", resource);
`;

function line(subject: string, tool: string, at: string): AuditEntry {
  return {
    kind: "attempt",
    at,
    agent: "desk",
    principal: { subject },
    tool,
    args: { project: "PLAT" },
    decision: "allow",
    policy: ["p"],
  };
}

interface AuditAnswer {
  agent: string;
  lines: ChainedEntry[];
  onlySubject?: string;
  error?: string;
  action?: string;
}

describe("GET /audit on an agent", () => {
  const dbName = uniqueDbName("audit-route");
  const policyFile = join(scratchDir("audit-route"), "policies.cedar");
  let idp: IdentityProvider;
  let llm: ScriptedLlm;
  let mongo: MongoClient;
  const tokens: Record<string, string> = {};
  const running: RunningAgent[] = [];

  async function start(extra: Record<string, string>): Promise<RunningAgent> {
    const agent = await serveAgent(deskAgent, {
      env: {
        PORT: "0",
        HOST: "127.0.0.1",
        AGENT_NAME: "desk",
        ...testMongoEnv(dbName),
        ...llm.env,
        ...extra,
      },
      logger: createLogger({ level: "silent" }),
    });
    running.push(agent);
    return agent;
  }
  const jwt = () => ({
    AUTH_MODE: "jwt",
    AUTH_JWKS_URL: idp.jwksUrl,
    AUTH_ISSUER: idp.issuer,
    AUTH_AUDIENCE: idp.audience,
  });
  async function get(agent: RunningAgent, user: string | undefined, query = "") {
    const response = await fetch(`${agent.url}/audit${query}`, {
      headers: user ? { authorization: `Bearer ${tokens[user]}` } : {},
    });
    return { status: response.status, body: (await response.json()) as AuditAnswer };
  }

  beforeAll(async () => {
    writeFileSync(policyFile, POLICY);
    idp = await startIdentityProvider({
      users: { alice: { groups: ["admins"] }, bob: { groups: ["readers"] } },
    });
    llm = await startScriptedLlm({ script: rules([]) });
    mongo = await MongoClient.connect(testMongoUri());
    for (const user of ["alice", "bob"]) tokens[user] = await signIn(idp, user);
    // Another writer of the same trail, as a second replica of the agent would be.
    const log = await MongoAuditLog.create(mongo.db(dbName), "audit_desk", { key: testAuditKey });
    await log.append(line("alice", "create_issue", "2026-01-01T10:00:00.000Z"));
    await log.append(line("bob", "merge_pull_request", "2026-01-02T10:00:00.000Z"));
    await log.append(line("alice", "close_issue", "2026-01-03T10:00:00.000Z"));
    await log.append(line("bob", "add_comment", "2026-01-04T10:00:00.000Z"));
  });
  afterAll(async () => {
    for (const agent of running) await agent.close();
    await mongo?.db(dbName).dropDatabase();
    await Promise.all([mongo?.close(), llm?.close(), idp?.close()]);
  });

  it("answers those the policy allows with every line, newest last, filtered", async () => {
    const agent = await start({ ...jwt(), AUTHZ_POLICY_FILE: policyFile });
    const all = await get(agent, "alice");
    expect(all.status).toBe(200);
    expect(all.body.agent).toBe("desk");
    expect(all.body.lines.map((entry) => entry.tool)).toEqual([
      "create_issue",
      "merge_pull_request",
      "close_issue",
      "add_comment",
    ]);
    const bobs = await get(agent, "alice", "?subject=bob&limit=1");
    expect(bobs.body.lines.map((entry) => entry.tool)).toEqual(["add_comment"]);
    const window = await get(agent, "alice", "?since=2026-01-02T00:00:00Z&until=2026-01-03T23:00:00Z");
    expect(window.body.lines.map((entry) => entry.seq)).toEqual([2, 3]);
  });

  it("refuses a caller the policy does not allow with 403 naming the action, and records it", async () => {
    const agent = running[0] ?? (await start({ ...jwt(), AUTHZ_POLICY_FILE: policyFile }));
    const refused = await get(agent, "bob");
    expect(refused.status).toBe(403);
    expect(refused.body.action).toBe("audit");
    expect(refused.body.error).toContain(`Switchboard::Action::"audit" on Switchboard::Agent::"desk"`);
    expect(refused.body.error).toContain("no policy permits it");
    expect(refused.body.lines).toBeUndefined();
    const denial = await mongo
      .db(dbName)
      .collection("audit_desk")
      .findOne({ kind: "denial", tool: "audit", "principal.subject": "bob" });
    expect(denial).not.toBeNull();
  });

  it("refuses bad filters and an unsigned request", async () => {
    const agent = running[0] ?? (await start({ ...jwt(), AUTHZ_POLICY_FILE: policyFile }));
    expect((await get(agent, "alice", "?limit=1001")).status).toBe(400);
    expect((await get(agent, "alice", "?limit=0")).status).toBe(400);
    expect((await get(agent, "alice", "?since=yesterday")).body.error).toContain("Invalid since");
    expect((await fetch(`${agent.url}/audit`)).status).toBe(401);
  });

  it("with no policy, shows a signed-in caller only their own lines, whatever subject they ask for", async () => {
    const agent = await start(jwt());
    const own = await get(agent, "bob", "?subject=alice");
    expect(own.status).toBe(200);
    expect(own.body.onlySubject).toBe("bob");
    // Bob's own lines: his two changes and the reading the policy refused him above.
    expect(own.body.lines.map((entry) => entry.tool)).toEqual(["merge_pull_request", "add_comment", "audit"]);
    expect(own.body.lines.every((entry) => entry.principal.subject === "bob")).toBe(true);
  });

  it("with no policy and AUTH_MODE=none, shows the local principal every line", async () => {
    const agent = await start({ AUTH_MODE: "none" });
    const all = await get(agent, undefined);
    expect(all.status).toBe(200);
    expect(all.body.onlySubject).toBeUndefined();
    expect(all.body.lines.filter((entry) => entry.kind === "attempt")).toHaveLength(4);
  });
});
