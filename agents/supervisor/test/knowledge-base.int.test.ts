import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { connectAgent } from "@switchboard/a2a-client";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import { type AgentProcess, freePort } from "@switchboard-testing/test-agents";
import { hopKeys, type IdentityProvider, signIn, startIdentityProvider } from "@switchboard-testing/test-idp";
import {
  callTool,
  messageText,
  offeredToolNames,
  replyFromToolResult,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { testMongoEnv, uniqueDbName } from "@switchboard-testing/test-mongo";
import { type RagDocument, type RagServer, startRagServer } from "@switchboard-testing/test-rag";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAgent } from "./fleet.js";

// Everyone signed in may do anything; the knowledge base's search is taken from the "no-kb" group.
const POLICY = `
permit(principal, action, resource) when { principal.authenticated };

@id("no-knowledge-base")
forbid(principal in Switchboard::Group::"no-kb", action, resource in Switchboard::Tool::"supervisor/search");
`;

const RUNBOOK: RagDocument = {
  document_id: "rb-certs",
  datasource_id: "runbooks",
  title: "Rotating the staging certificates",
  source_url: "https://wiki.example.com/runbooks/certs",
  text: "To rotate the staging certificates, run certbot renew on the bastion, then reload nginx.",
};
/** Only the security team may read it: bob must never see a word of it. */
const INCIDENT: RagDocument = {
  document_id: "inc-42",
  datasource_id: "incidents",
  title: "Certificate private key leaked",
  source_url: "https://wiki.example.com/incidents/42",
  text: "The staging certificates private key leaked through bucket s3-sec-audit-7731; rotate at once.",
};

/** The model: "kb: <question>" searches the knowledge base when it is offered, and answers from it. */
const script = rules(
  [
    {
      toolOffered: "search",
      lastUser: /^kb: (.+)$/,
      reply: (_r, { match }) => callTool("search", { query: match?.[1], thought: "the user asks how" }),
    },
    {
      afterTool: "search",
      reply: replyFromToolResult((results) => `From the knowledge base: ${results[0]?.content}`),
    },
  ],
  say("I cannot search the knowledge base."),
);

describe("the supervisor's knowledge base (ENABLE_RAG, RAG_SERVER_URL)", () => {
  const policyFile = join(scratchDir("supervisor-rag"), "policies.cedar");
  let idp: IdentityProvider;
  let llm: ScriptedLlm;
  let rag: RagServer;
  /** CAIPE's default: tools are listed only to a caller with a token. */
  let locked: RagServer;
  let late: RagServer | undefined;
  let latePort: number;
  const supervisors: Record<"kb" | "late" | "off" | "locked", AgentProcess> = {} as never;
  const tokens: Record<string, string> = {};

  const ask = async (which: keyof typeof supervisors, user: string, text: string) => {
    const connection = await connectAgent(supervisors[which].url, { token: tokens[user] });
    return connection.send({ text, contextId: `conv-${randomUUID()}` });
  };
  /** Every model request from `at` on, as text. */
  const modelSaw = (at: number) => JSON.stringify(llm.requests.slice(at));

  beforeAll(async () => {
    writeFileSync(policyFile, POLICY);
    let ports: number[];
    [idp, llm, ...ports] = await Promise.all([
      startIdentityProvider({
        users: {
          alice: { groups: ["platform", "security"] },
          bob: { groups: ["platform"] },
          carol: { groups: ["platform", "no-kb"] },
        },
      }),
      startScriptedLlm({ script }),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    latePort = ports[3] as number;
    rag = await startRagServer({
      idp,
      datasources: [
        { id: "runbooks", readers: ["platform"] },
        { id: "incidents", readers: ["security"] },
      ],
      documents: [RUNBOOK, INCIDENT],
    });
    locked = await startRagServer({
      idp,
      requireToken: true,
      datasources: [{ id: "runbooks", readers: ["platform"] }],
      documents: [RUNBOOK],
    });
    for (const user of ["alice", "bob", "carol"]) tokens[user] = await signIn(idp, user);
    const common = {
      ...llm.env,
      LOG_LEVEL: "info",
      AUTH_MODE: "jwt",
      AUTH_JWKS_URL: idp.jwksUrl,
      AUTH_ISSUER: idp.issuer,
      AUTH_AUDIENCE: idp.audience,
      ...hopKeys(),
      AUTHZ_POLICY_FILE: policyFile,
    };
    const [kb, down, off, lockedOut] = await Promise.all([
      startAgent("supervisor", ports[0] as number, {
        ...common,
        ...testMongoEnv(uniqueDbName("rag-kb")),
        ENABLE_RAG: "true",
        RAG_SERVER_URL: rag.url,
      }),
      startAgent("supervisor", ports[1] as number, {
        ...common,
        ...testMongoEnv(uniqueDbName("rag-late")),
        ENABLE_RAG: "true",
        // Nothing listens there yet: the server comes up later.
        RAG_SERVER_URL: `http://127.0.0.1:${latePort}/`,
        RAG_CONNECTIVITY_WAIT_SECONDS: "0.5",
      }),
      startAgent("supervisor", ports[2] as number, {
        ...common,
        ...testMongoEnv(uniqueDbName("rag-off")),
        RAG_SERVER_URL: rag.url,
      }),
      startAgent("supervisor", ports[4] as number, {
        ...common,
        ...testMongoEnv(uniqueDbName("rag-locked")),
        ENABLE_RAG: "true",
        RAG_SERVER_URL: locked.url,
      }),
    ]);
    Object.assign(supervisors, { kb, late: down, off, locked: lockedOut });
  });
  afterAll(async () => {
    await Promise.all(Object.values(supervisors).map((agent) => agent.kill("SIGTERM")));
    await Promise.all([rag?.close(), locked?.close(), late?.close(), llm?.close(), idp?.close()]);
  });

  it("searches the knowledge base with the user's own token and answers with the result and its link", async () => {
    // The supervisor connects to the RAG server beside its start, as it joins its subagents.
    await expect.poll(() => supervisors.kb.logs(), { timeout: 20_000 }).toContain("Knowledge base connected");
    const at = llm.requests.length;
    const calls = rag.calls.length;
    const answer = await ask("kb", "alice", "kb: How do we rotate the staging certificates?");
    expect(answer.state).toBe("completed");
    expect(answer.text).toContain("certbot renew");
    expect(answer.text).toContain(RUNBOOK.source_url);
    // The model was offered CAIPE's tools, under CAIPE's names, and told how to use them.
    const first = llm.requests[at];
    expect(first && offeredToolNames(first)).toEqual(
      expect.arrayContaining(["call_agent", "search", "fetch_document", "list_datasources_and_entity_types"]),
    );
    expect(messageText(first?.messages[0]?.content)).toContain("## Knowledge base");
    // The RAG server got alice's own token, verified it, and read what her groups may read.
    const [call] = rag.calls.slice(calls);
    expect(call).toMatchObject({ tool: "search", subject: "alice", readable: ["runbooks", "incidents"] });
    expect(call?.token).toBe(tokens.alice);
  });

  it("gives a user nothing from a datasource the server's rules refuse them, in the answer or any model request", async () => {
    const at = llm.requests.length;
    const calls = rag.calls.length;
    const answer = await ask("kb", "bob", "kb: What happened to the staging certificates private key?");
    expect(answer.state).toBe("completed");
    expect(answer.text).toContain("certbot renew");
    for (const secret of [INCIDENT.text, INCIDENT.document_id, INCIDENT.title, "s3-sec-audit-7731"]) {
      expect(answer.text).not.toContain(secret);
      expect(modelSaw(at)).not.toContain(secret);
    }
    expect(rag.calls.slice(calls)).toEqual([
      expect.objectContaining({ tool: "search", subject: "bob", token: tokens.bob, readable: ["runbooks"] }),
    ]);
  });

  it("decides each knowledge base call by the supervisor's policy, like any tool", async () => {
    const calls = rag.calls.length;
    const answer = await ask("kb", "carol", "kb: How do we rotate the staging certificates?");
    expect(answer.state).toBe("completed");
    expect(answer.text).toContain("Not allowed");
    expect(answer.text).not.toContain("certbot renew");
    expect(rag.calls.slice(calls)).toEqual([]);
  });

  it("starts when the RAG server is down, says so naming RAG_SERVER_URL, answers without it, and takes its tools when it comes back", async () => {
    const logs = supervisors.late.logs();
    expect(logs).toContain("The knowledge base is unavailable");
    expect(logs).toContain(`http://127.0.0.1:${latePort} (RAG_SERVER_URL)`);
    const at = llm.requests.length;
    const answer = await ask("late", "alice", "kb: How do we rotate the staging certificates?");
    expect(answer.state).toBe("completed");
    expect(answer.text).toBe("I cannot search the knowledge base.");
    const asked = llm.requests[at];
    expect(asked && offeredToolNames(asked)).not.toContain("search");
    expect(messageText(asked?.messages[0]?.content)).toContain("The knowledge base");
    expect(messageText(asked?.messages[0]?.content)).toContain("unavailable right now");

    late = await startRagServer({
      idp,
      port: latePort,
      datasources: [{ id: "runbooks", readers: ["platform"] }],
      documents: [RUNBOOK],
    });
    await expect
      .poll(() => supervisors.late.logs(), { timeout: 20_000 })
      .toContain("Knowledge base connected");
    const again = await ask("late", "alice", "kb: How do we rotate the staging certificates?");
    expect(again.text).toContain("certbot renew");
    expect(late.calls).toEqual([expect.objectContaining({ tool: "search", subject: "alice" })]);
  });

  it("takes the tools of a server that lists them only to a signed-in user (CAIPE's default) with the first caller's own token", async () => {
    await expect
      .poll(() => supervisors.locked.logs(), { timeout: 20_000 })
      .toContain("lists its tools only to a signed-in user");
    // Nothing was listed without a token: the listing was refused, and no tool was offered yet.
    expect(locked.requests).toContain("POST /mcp 401");
    const answer = await ask("locked", "bob", "kb: How do we rotate the staging certificates?");
    expect(answer.text).toContain("certbot renew");
    expect(supervisors.locked.logs()).toContain("Knowledge base connected");
    const later = await ask("locked", "alice", "kb: How do we rotate the staging certificates?");
    expect(later.text).toContain("certbot renew");
    // Each call went with its own caller's token.
    expect(locked.calls.map(({ subject, token }) => [subject, token])).toEqual([
      ["bob", tokens.bob],
      ["alice", tokens.alice],
    ]);
    expect(supervisors.locked.logs()).not.toContain(tokens.bob as string);
  });

  it("offers no knowledge base tool when ENABLE_RAG is unset, whatever RAG_SERVER_URL says", async () => {
    const at = llm.requests.length;
    const answer = await ask("off", "alice", "kb: How do we rotate the staging certificates?");
    expect(answer.text).toBe("I cannot search the knowledge base.");
    const asked = llm.requests[at];
    expect(asked && offeredToolNames(asked)).not.toContain("search");
    expect(messageText(asked?.messages[0]?.content)).not.toContain("Knowledge base");
    expect(supervisors.off.logs()).not.toContain("RAG server");
  });
});
