import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import { type FakeJira, startFakeJira } from "@switchboard-testing/fake-jira";
import { type OtlpReceiver, startOtlpReceiver } from "@switchboard-testing/otlp-receiver";
import { type AgentProcess, freePort } from "@switchboard-testing/test-agents";
import { hopKeys } from "@switchboard-testing/test-idp";
import { rules, type ScriptedLlm, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { testMongoEnv, testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { SignJWT } from "jose";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAgent } from "./fleet.js";

const POLICY = `
@id("signed-in-reach")
permit(principal, action == Switchboard::Action::"reach", resource) when { principal.authenticated };

@id("auditors-audit")
permit(principal in Switchboard::Group::"auditors", action == Switchboard::Action::"audit", resource);
`;

interface FleetAudit {
  agent: string;
  lines: Array<{ agent: string; at: string; tool: string; principal: { subject: string } }>;
  unavailable: Array<{ agent: string; reason: string }>;
  error?: string;
  action?: string;
}

/** A stored audit line, as an agent writes it (the chain is not what this test reads). */
function line(agent: string, seq: number, subject: string, tool: string, at: string) {
  return {
    _id: seq,
    seq,
    prev: "",
    hash: `h${seq}`,
    kind: "attempt",
    at,
    agent,
    principal: { subject },
    tool,
    args: {},
    decision: "allow",
    policy: ["p"],
  };
}

describe("GET /audit on the supervisor: the fleet's audit trail", () => {
  const dbName = uniqueDbName("fleet-audit");
  const secret = "fleet-audit-secret-".padEnd(40, "x");
  const policyFile = join(scratchDir("fleet-audit"), "policies.cedar");
  let llm: ScriptedLlm;
  let jira: FakeJira;
  let mongo: MongoClient;
  let receiver: OtlpReceiver;
  let supervisorPort: number;
  const processes: AgentProcess[] = [];
  const tokens: Record<string, string> = {};

  const sign = (subject: string, groups: string[]) =>
    new SignJWT({ groups })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer("switchboard-test")
      .setIssuedAt()
      .setSubject(subject)
      .setAudience("switchboard")
      .setExpirationTime("10m")
      .sign(new TextEncoder().encode(secret));
  const get = async (user: string, query = "") => {
    const response = await fetch(`http://127.0.0.1:${supervisorPort}/audit${query}`, {
      headers: { authorization: `Bearer ${tokens[user]}` },
    });
    return { status: response.status, body: (await response.json()) as FleetAudit };
  };

  beforeAll(async () => {
    writeFileSync(policyFile, POLICY);
    let jiraPort: number;
    let downPort: number;
    [llm, jira, mongo, receiver, jiraPort, supervisorPort, downPort] = await Promise.all([
      startScriptedLlm({ script: rules([], say("ok")) }),
      startFakeJira(),
      MongoClient.connect(testMongoUri()),
      startOtlpReceiver(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    tokens.ann = await sign("ann", ["auditors"]);
    tokens.bob = await sign("bob", []);
    const db = mongo.db(dbName);
    await db
      .collection("audit_jira")
      .insertMany([
        line("jira", 1, "bob", "create_issue", "2026-01-01T10:00:00.000Z"),
        line("jira", 2, "ann", "transition_issue", "2026-01-03T10:00:00.000Z"),
      ] as never[]);
    await db
      .collection("audit_supervisor")
      .insertMany([line("supervisor", 1, "bob", "*", "2026-01-02T10:00:00.000Z")] as never[]);
    const common = {
      ...testMongoEnv(dbName),
      ...llm.env,
      AUTH_MODE: "jwt",
      AUTH_JWT_SECRET: secret,
      AUTH_ISSUER: "switchboard-test",
      AUTH_AUDIENCE: "switchboard",
      ...hopKeys(),
      AUTHZ_POLICY_FILE: policyFile,
      ...receiver.env,
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
        // Enabled, but nothing listens there: it must be listed, not dropped.
        ENABLE_GITHUB: "true",
        GITHUB_AGENT_URL: `http://127.0.0.1:${downPort}`,
        ENABLE_WEATHER: "false",
      }),
    );
    // Until the supervisor has read Jira's card.
    for (let waited = 0; waited < 15_000; waited += 200) {
      const response = await fetch(`http://127.0.0.1:${supervisorPort}/subagents`, {
        headers: { authorization: `Bearer ${tokens.ann}` },
      });
      const { subagents } = (await response.json()) as { subagents: Array<{ name: string; status: string }> };
      if (subagents.find((agent) => agent.name === "jira")?.status === "available") break;
      await sleep(200);
    }
  });
  afterAll(async () => {
    await Promise.all(processes.splice(0).map((agent) => agent.kill("SIGTERM")));
    await mongo?.db(dbName).dropDatabase();
    await Promise.all([mongo?.close(), llm?.close(), jira?.close(), receiver?.close()]);
  });

  it("merges its own lines and each reachable subagent's by time, and lists the one it could not reach", async () => {
    const { status, body } = await get("ann");
    expect(status).toBe(200);
    expect(body.lines.map((entry) => `${entry.agent}:${entry.tool}`)).toEqual([
      "jira:create_issue",
      "supervisor:*",
      "jira:transition_issue",
    ]);
    expect(body.unavailable.map((entry) => entry.agent)).toEqual(["github"]);
    expect(body.unavailable[0]?.reason).toBeTruthy();
  });

  it("passes the filters on, and agent= picks one agent", async () => {
    const bobs = await get("ann", "?subject=bob");
    expect(bobs.body.lines.map((entry) => entry.agent)).toEqual(["jira", "supervisor"]);
    const jiraOnly = await get("ann", "?agent=jira&since=2026-01-02T00:00:00Z");
    expect(jiraOnly.body.lines.map((entry) => entry.tool)).toEqual(["transition_issue"]);
    expect(jiraOnly.body.unavailable).toEqual([]);
    const newest = await get("ann", "?limit=1");
    expect(newest.body.lines.map((entry) => entry.tool)).toEqual(["transition_issue"]);
    expect((await get("ann", "?limit=5000")).status).toBe(400);
  });

  it("refuses a caller no agent lets audit, naming the action, with each agent's refusal", async () => {
    const { status, body } = await get("bob");
    expect(status).toBe(403);
    expect(body.action).toBe("audit");
    expect(body.error).toContain(`Switchboard::Action::"audit" on Switchboard::Agent::"supervisor"`);
    const refusedBy = body.unavailable.map((entry) => entry.agent).sort();
    expect(refusedBy).toEqual(["github", "jira", "supervisor"]);
    expect(body.unavailable.find((entry) => entry.agent === "jira")?.reason).toContain(
      'Switchboard::Agent::"jira"',
    );
  });

  it("emits each audit line as an OpenTelemetry log record, in the request's trace, with no token", async () => {
    const records = await receiver.waitForLogs((all) =>
      all.some(
        (record) =>
          record.service === "switchboard-supervisor" && record.attributes["audit.tool"] === "audit",
      ),
    );
    const denial = records.find(
      (record) => record.service === "switchboard-supervisor" && record.attributes["audit.tool"] === "audit",
    );
    expect(denial).toMatchObject({
      scope: "switchboard.audit",
      severityText: "INFO",
      body: expect.stringContaining("denied: bob may not read the supervisor agent's audit trail"),
      attributes: {
        "audit.kind": "denial",
        "audit.agent": "supervisor",
        "audit.principal.subject": "bob",
        "audit.decision": "deny",
      },
    });
    expect(denial?.traceId).toMatch(/^[0-9a-f]{32}$/);
    // Its place in the keyed chain, exported as written: an anchor the database does not hold.
    const stored = await mongo
      .db(dbName)
      .collection("audit_supervisor")
      .findOne({ _id: denial?.attributes["audit.seq"] as never });
    expect(denial?.attributes["audit.link"]).toBe(stored?.hash);
    expect(denial?.attributes["audit.keyId"]).toBe(stored?.keyId);
    // Jira recorded its own refusal of the same request, forwarded with bob's token.
    await receiver.waitForLogs((all) =>
      all.some(
        (record) => record.service === "switchboard-jira" && record.attributes["audit.tool"] === "audit",
      ),
    );
    await receiver.settle();
    for (const token of Object.values(tokens)) expect(receiver.bodies.join("\n")).not.toContain(token);
  });
});
