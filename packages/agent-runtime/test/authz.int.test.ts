import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { ClientFactory } from "@a2a-js/sdk/client";
import { createLogger } from "@switchboard/common";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import { type IdentityProvider, signIn, startIdentityProvider } from "@switchboard-testing/test-idp";
import {
  callTool,
  replyFromToolResult,
  rules,
  type ScriptedLlm,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { storedText, testMongoEnv, testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { ChainedEntry } from "../src/audit/entry.js";
import type { AgentDefinition } from "../src/definition.js";
import { type RunningAgent, serveAgent } from "../src/serve.js";
import { defineTool } from "../src/tools/define-tool.js";
import { send, stateOf, statusText } from "./a2a.js";
import { chainProblems } from "./audit-lines.js";

/** Tickets by project, kept in the test: what the agent's tools read and change. */
const tickets: Array<{ project: string; summary: string }> = [];

/** A ticket desk whose tools say which project a call acts on (Jira-like keys: case does not matter). */
const deskAgent: AgentDefinition = {
  name: "desk",
  title: "Desk",
  description: "Files and lists tickets by project.",
  systemPrompt: "You work the ticket desk.",
  skills: [
    { id: "desk", name: "Desk", description: "Tickets", tags: ["tickets"], examples: ["list tickets"] },
  ],
  tools: () => [
    defineTool({
      name: "list_tickets",
      description: "List a project's tickets",
      schema: z.object({ project: z.string() }),
      resource: ({ project }) => ({ project: project.toUpperCase() }),
      run: ({ project }) => JSON.stringify(tickets.filter((ticket) => ticket.project === project)),
    }),
    defineTool({
      name: "file_ticket",
      description: "File a ticket in a project",
      schema: z.object({ project: z.string(), summary: z.string(), token: z.string().optional() }),
      resource: ({ project }) => ({ project: project.toUpperCase() }),
      confirm: ({ project, summary }) => `File "${summary}" in ${project}?`,
      run: ({ project, summary }) => {
        tickets.push({ project, summary });
        return `filed "${summary}" in ${project}`;
      },
    }),
  ],
};

const POLICY = `
@id("staff-read")
permit(principal, action in [Switchboard::Action::"reach", Switchboard::Action::"read"], resource)
when { principal in Switchboard::Group::"readers" || principal in Switchboard::Group::"plat" };

@id("plat-changes-plat")
permit(principal in Switchboard::Group::"plat", action == Switchboard::Action::"change", resource in Desk::Project::"PLAT");

@id("nobody-touches-vault")
forbid(principal, action == Switchboard::Action::"change", resource in Desk::Project::"VAULT");
`;

describe("who may do what, on tokens from a real OIDC provider", () => {
  const dbName = uniqueDbName("authz");
  const dir = scratchDir("authz");
  const policyFile = join(dir, "policies.cedar");
  const logLines: string[] = [];
  let idp: IdentityProvider;
  let llm: ScriptedLlm;
  let mongo: MongoClient;
  let agent: RunningAgent;
  const tokens: Record<string, string> = {};

  const env = () => ({
    PORT: "0",
    HOST: "127.0.0.1",
    AGENT_NAME: "desk",
    AUTH_MODE: "jwt",
    AUTH_JWKS_URL: idp.jwksUrl,
    AUTH_ISSUER: idp.issuer,
    AUTH_AUDIENCE: idp.audience,
    ...testMongoEnv(dbName),
    ...llm.env,
  });
  const logger = () =>
    createLogger({
      level: "info",
      destination: new Writable({
        write(chunk, _encoding, done) {
          logLines.push(chunk.toString());
          done();
        },
      }),
    });

  async function ask(user: string, text: string, contextId = randomUUID(), taskId = "") {
    const client = await new ClientFactory().createFromUrl(agent.url);
    return send(client, text, contextId, taskId, {
      serviceParameters: { Authorization: `Bearer ${tokens[user]}` },
    });
  }
  async function auditLines(): Promise<ChainedEntry[]> {
    const lines = await mongo
      .db(dbName)
      .collection("audit_desk")
      .find({}, { sort: { _id: 1 } })
      .toArray();
    return lines.map(({ _id, expire_at, ...line }) => line as unknown as ChainedEntry);
  }

  beforeAll(async () => {
    writeFileSync(policyFile, POLICY);
    idp = await startIdentityProvider({
      users: {
        alice: { groups: ["plat"], email: "alice@example.com" },
        bob: { groups: ["readers"], email: "bob@example.com" },
        carol: { groups: [] },
      },
    });
    llm = await startScriptedLlm({
      script: rules([
        {
          lastUser: /^list (\S+)$/,
          reply: (_r, { match }) => callTool("list_tickets", { project: match?.[1] }),
        },
        {
          lastUser: /^file (\S+): (.+)$/,
          reply: (_r, { match }) =>
            callTool("file_ticket", {
              project: match?.[1],
              summary: match?.[2],
              token: "tok-should-not-be-kept",
            }),
        },
        { afterTool: true, reply: replyFromToolResult() },
      ]),
    });
    mongo = await MongoClient.connect(testMongoUri());
    for (const user of ["alice", "bob", "carol"]) tokens[user] = await signIn(idp, user);
    agent = await serveAgent(deskAgent, {
      env: { ...env(), AUTHZ_POLICY_FILE: policyFile },
      logger: logger(),
    });
  });
  afterAll(async () => {
    await agent?.close();
    await mongo?.db(dbName).dropDatabase();
    await Promise.all([mongo?.close(), llm?.close(), idp?.close()]);
  });

  it("lets a reader search but not change: refused before any question, nothing done, audited", async () => {
    const listed = await ask("bob", "list PLAT");
    expect(stateOf(listed)).toBe("TASK_STATE_COMPLETED");
    expect(statusText(listed) || JSON.stringify(listed.artifacts)).toContain("list_tickets returned: []");

    const refused = await ask("bob", "file PLAT: rotate keys");
    expect(stateOf(refused)).toBe("TASK_STATE_COMPLETED"); // never input-required: no question asked
    const answer = JSON.stringify(refused.artifacts);
    expect(answer).toContain(
      "Not allowed: bob@example.com may not change with desk's file_ticket on project PLAT",
    );
    expect(tickets).toEqual([]);
    const denial = (await auditLines()).find((line) => line.kind === "denial");
    expect(denial).toMatchObject({
      principal: { subject: "bob", email: "bob@example.com" },
      tool: "file_ticket",
      resource: { project: "PLAT" },
      decision: "deny",
      args: { project: "PLAT", summary: "rotate keys", token: "[redacted]" },
    });
  });

  it("lets a member change their own project after confirming, recorded before and after", async () => {
    const contextId = randomUUID();
    const asked = await ask("alice", "file plat: rotate keys", contextId);
    expect(stateOf(asked)).toBe("TASK_STATE_INPUT_REQUIRED");
    expect(statusText(asked)).toContain('File "rotate keys" in plat?');
    const done = await ask("alice", "yes", contextId, asked.id);
    expect(stateOf(done)).toBe("TASK_STATE_COMPLETED");
    expect(tickets).toEqual([{ project: "plat", summary: "rotate keys" }]);
    const lines = await auditLines();
    const attempt = lines.find((line) => line.kind === "attempt");
    expect(attempt).toMatchObject({ confirmedBy: "alice", policy: ["plat-changes-plat"], contextId });
    expect(lines.find((line) => line.kind === "outcome")).toMatchObject({
      outcome: "done",
      attempt: attempt?.seq,
    });
    expect(chainProblems(lines)).toEqual([]);
    // Keyed: the key agents on the test MongoDB are given.
    expect(attempt?.keyId).toBeDefined();
  });

  it("lets nobody else answer a user's change without a policy: a forged approver token is refused, a real one asked again", async () => {
    const contextId = randomUUID();
    const asked = await ask("alice", "file PLAT: approved by someone else?", contextId);
    expect(stateOf(asked)).toBe("TASK_STATE_INPUT_REQUIRED");
    const client = await new ClientFactory().createFromUrl(agent.url);
    const withApprover = (approver: string) =>
      send(client, "yes", contextId, asked.id, {
        serviceParameters: {
          Authorization: `Bearer ${tokens.alice}`,
          "Switchboard-Approver": `Bearer ${approver}`,
        },
      });
    await expect(withApprover("not-a-jwt")).rejects.toThrow(
      /Switchboard-Approver token: the token was refused/,
    );
    const again = await withApprover(tokens.bob ?? "");
    expect(stateOf(again)).toBe("TASK_STATE_INPUT_REQUIRED");
    expect(statusText(again)).toContain(
      "Not allowed: bob@example.com may not approve or decline alice@example.com's change (no policy permits it).",
    );
    expect(statusText(again)).toContain('File "approved by someone else?" in PLAT?');
    expect(tickets.some((ticket) => ticket.summary === "approved by someone else?")).toBe(false);
    const denial = (await auditLines()).findLast((line) => line.kind === "denial");
    expect(denial).toMatchObject({
      principal: { subject: "bob" },
      requester: { subject: "alice" },
      tool: "file_ticket",
      resource: { project: "PLAT" },
    });
    // Alice can still answer her own question.
    expect(stateOf(await ask("alice", "no", contextId, asked.id))).toBe("TASK_STATE_COMPLETED");
  });

  it("scopes changes to the project the policy names, whatever the spelling", async () => {
    for (const [text, allowed] of [
      ["file OPS: not mine", false],
      ["file ＰＬＡＴ: full-width letters", true],
      ["file vault: lower case", false],
      ["file VAULT: upper case", false],
    ] as const) {
      const task = await ask("alice", text);
      expect(stateOf(task), text).toBe(allowed ? "TASK_STATE_INPUT_REQUIRED" : "TASK_STATE_COMPLETED");
      if (!allowed) expect(JSON.stringify(task.artifacts), text).toContain("Not allowed");
    }
    const vault = (await auditLines()).filter(
      (line) => line.kind === "denial" && line.resource?.project === "VAULT",
    );
    expect(vault.map((line) => line.policy)).toEqual([["nobody-touches-vault"], ["nobody-touches-vault"]]);
  });

  it("refuses a user no policy lets reach the agent, before anything runs", async () => {
    const refused = await ask("carol", "list PLAT");
    expect(stateOf(refused)).toBe("TASK_STATE_FAILED");
    expect(statusText(refused)).toContain(
      "Not allowed: carol may not use the desk agent (no policy permits it)",
    );
    expect(llm.requests.filter((request) => JSON.stringify(request).includes("carol"))).toEqual([]);
  });

  it("decides the same over gRPC: a reader's change refused and audited, a user no policy admits kept out", async () => {
    const { GrpcTransportFactory } = await import("@a2a-js/sdk/client/grpc");
    const grpc = await new ClientFactory({
      transports: [new GrpcTransportFactory()],
      preferredTransports: ["GRPC"],
    }).createFromUrl(agent.url);
    const as = (user: string) => ({ serviceParameters: { authorization: `Bearer ${tokens[user]}` } });
    const refused = await send(grpc, "file PLAT: sent over grpc", randomUUID(), "", as("bob"));
    expect(stateOf(refused)).toBe("TASK_STATE_COMPLETED");
    expect(JSON.stringify(refused.artifacts)).toContain(
      "Not allowed: bob@example.com may not change with desk's file_ticket on project PLAT",
    );
    expect(tickets.filter((ticket) => ticket.summary === "sent over grpc")).toEqual([]);
    const denials = (await auditLines()).filter(
      (line) => line.kind === "denial" && line.args?.summary === "sent over grpc",
    );
    expect(denials.map((line) => line.principal?.subject)).toEqual(["bob"]);
    const outsider = await send(grpc, "list PLAT", randomUUID(), "", as("carol"));
    expect(stateOf(outsider)).toBe("TASK_STATE_FAILED");
    expect(statusText(outsider)).toContain(
      "Not allowed: carol may not use the desk agent (no policy permits it)",
    );
  });

  it("refuses a token re-signed with added groups", async () => {
    const { privateKey, publicKey } = await generateKeyPair("RS256");
    await exportJWK(publicKey);
    const forged = await new SignJWT({ groups: ["plat"] })
      .setProtectedHeader({ alg: "RS256", kid: "test-key" })
      .setSubject("carol")
      .setIssuer(idp.issuer)
      .setAudience(idp.audience)
      .setExpirationTime("5m")
      .sign(privateKey);
    const response = await fetch(agent.url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${forged}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: {} }),
    });
    expect(response.status).toBe(401);
  });

  it("reloads a changed policy without a restart, and keeps the last good one when the new one is invalid", async () => {
    writeFileSync(
      policyFile,
      `${POLICY}\n@id("readers-change") permit(principal in Switchboard::Group::"readers", action, resource);`,
    );
    let asked = await ask("bob", "file PLAT: now allowed");
    for (let waited = 0; stateOf(asked) !== "TASK_STATE_INPUT_REQUIRED" && waited < 10_000; waited += 500) {
      await sleep(500);
      asked = await ask("bob", "file PLAT: now allowed");
    }
    expect(stateOf(asked)).toBe("TASK_STATE_INPUT_REQUIRED");

    writeFileSync(policyFile, "permit(principal, action, resource"); // broken
    for (
      let waited = 0;
      !logLines.some((line) => line.includes("was refused")) && waited < 10_000;
      waited += 250
    ) {
      await sleep(250);
    }
    const refusal = logLines.find((line) => line.includes("the changed policy file was refused"));
    expect(refusal).toContain("is not a valid Cedar policy set");
    expect(stateOf(await ask("bob", "file PLAT: still allowed"))).toBe("TASK_STATE_INPUT_REQUIRED");
  });

  it("keeps every token out of MongoDB and the logs, and credentials out of the audit trail", async () => {
    const stored = await storedText(mongo.db(dbName));
    for (const token of Object.values(tokens)) {
      expect(stored).not.toContain(token);
      expect(logLines.join("\n")).not.toContain(token);
    }
    // The model put a token in a call's arguments: the conversation keeps what the model said, the
    // audit trail keeps it redacted.
    expect(JSON.stringify(await auditLines())).not.toContain("tok-should-not-be-kept");
  });
});

describe("policy settings at start-up", () => {
  let llm: ScriptedLlm;
  beforeAll(async () => {
    llm = await startScriptedLlm({ script: rules([]) });
  });
  afterAll(() => llm.close());

  const base = () => ({ PORT: "0", HOST: "127.0.0.1", AGENT_NAME: "desk", ...llm.env });

  it("refuses to start on an invalid policy file, with Cedar's own message", async () => {
    const file = join(scratchDir("authz-bad"), "bad.cedar");
    writeFileSync(file, 'permit(principal, action == Switchboard::Action::"read" resource);');
    await expect(
      serveAgent(deskAgent, {
        env: { ...base(), AUTHZ_POLICY_FILE: file },
        logger: createLogger({ level: "silent" }),
      }),
    ).rejects.toThrow(/AUTHZ_POLICY_FILE \(.*bad\.cedar\) is not a valid Cedar policy set: .*\(line 1/);
  });

  it("warns once when tokens are required but no policy is set", async () => {
    const lines: string[] = [];
    const running = await serveAgent(deskAgent, {
      env: {
        ...base(),
        AUTH_MODE: "jwt",
        AUTH_JWT_SECRET: "x".repeat(32),
        AUTH_ISSUER: "switchboard-test",
        AUTH_AUDIENCE: "switchboard",
      },
      logger: createLogger({
        level: "warn",
        destination: new Writable({
          write(chunk, _encoding, done) {
            lines.push(chunk.toString());
            done();
          },
        }),
      }),
    });
    await running.close();
    expect(lines.filter((line) => line.includes("AUTH_MODE=jwt with no policy"))).toHaveLength(1);
  });
});
