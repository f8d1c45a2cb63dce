// biome-ignore-all lint/suspicious/noTemplateCurlyInString: auth values refer to variables as ${VAR}, on purpose.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type AgentConnection, connectAgent } from "@switchboard/a2a-client";
import { defineTool, type RunningAgent, serveAgent } from "@switchboard/agent-runtime";
import { createLogger } from "@switchboard/common";
import { createChatModel } from "@switchboard/llm";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import { startOpenApiFake, type VendorServer } from "@switchboard-testing/fake-vendors";
import { type IdentityProvider, signIn, startIdentityProvider } from "@switchboard-testing/test-idp";
import {
  callTool,
  PROVIDER_NAMES,
  replyFromToolResult,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { openApiTools } from "../src/index.js";
import { largeDescription } from "./fixtures/large-description.js";

const PETSTORE = join(
  import.meta.dirname,
  "..",
  "..",
  "..",
  "testing",
  "fake-vendors",
  "specs",
  "swagger-petstore",
  "openapi.yaml",
);

// Everyone may read and change, except deleting billing accounts; admins read the audit trail.
const POLICY = `
@id("staff")
permit(principal, action in [Switchboard::Action::"reach", Switchboard::Action::"read", Switchboard::Action::"change"], resource);

@id("admins-audit")
permit(principal in Switchboard::Group::"admins", action == Switchboard::Action::"audit", resource);

@id("billing-accounts-stay")
forbid(principal, action == Switchboard::Action::"change", resource in Switchboard::Tool::"fleet/fleet_delete_billing_account");
`;

interface AuditLine {
  kind: string;
  tool: string;
  args: Record<string, unknown>;
  outcome?: string;
  confirmedBy?: string;
  policy: string[];
}

// An agent given an 800-operation description (and a second, smaller source over its bound, and a
// tool of its own), served over A2A with a real identity provider and policy, the scripted model
// finding an operation and calling it through the catalog, and the fake made from the description.
describe("a description of 800 operations in an agent's turn", () => {
  const policyFile = join(scratchDir("large-description"), "policies.cedar");
  const KEY = "fleet-key-1";
  let fake: VendorServer;
  let llm: ScriptedLlm;
  let idp: IdentityProvider;
  let agent: RunningAgent;
  let alice: AgentConnection;
  const tokens: Record<string, string> = {};
  const notes: string[] = [];

  beforeAll(async () => {
    writeFileSync(policyFile, POLICY);
    [fake, llm, idp] = await Promise.all([
      startOpenApiFake({ vendor: "Fleet", document: largeDescription() as never, apiRoot: "/v1" }),
      startScriptedLlm({
        script: rules(
          [
            // "find <words> then call <arguments>": search, then call the best match.
            {
              lastUser: /^find (.+?) then call (\{.*\})$/s,
              reply: (_request, { match }) => callTool("fleet_find_operations", { query: match?.[1] ?? "" }),
            },
            {
              afterTool: "fleet_find_operations",
              reply: (_request, { toolResults, userText }) => {
                const found = JSON.parse(toolResults.at(-1)?.content ?? "{}") as {
                  matches?: Array<{ operation: string }>;
                };
                const args = JSON.parse(/then call (\{.*\})$/s.exec(userText)?.[1] ?? "{}");
                return callTool("fleet_call_operation", {
                  operation: found.matches?.[0]?.operation ?? "",
                  arguments: args,
                });
              },
            },
            // "call <tool> <arguments>": what a model (or whoever steers it) asks for, as it is.
            {
              lastUser: /^call (\w+) (\{.*\})$/s,
              reply: (_request, { match }) => callTool(match?.[1] ?? "", JSON.parse(match?.[2] ?? "{}")),
            },
            { afterTool: true, reply: replyFromToolResult() },
          ],
          say("Tell me what to do."),
        ),
      }),
      startIdentityProvider({ users: { alice: { groups: [] }, admin: { groups: ["admins"] } } }),
    ]);
    const logger = createLogger({ level: "silent" });
    const env = { FLEET_KEY: KEY };
    const fleet = await openApiTools({
      document: largeDescription(),
      baseUrl: `${fake.url}/v1`,
      env,
      auth: { api_key: "${FLEET_KEY}" },
      logger,
      label: 'OpenAPI source "fleet"',
    });
    // A second source over its bound: its operations are hidden behind its own catalog.
    const pets = await openApiTools({
      document: PETSTORE,
      baseUrl: "http://127.0.0.1:9/api/v3",
      env,
      logger,
      label: 'OpenAPI source "pets"',
    });
    const tools = [
      ...fleet.tools({ prefix: "fleet_" }),
      ...pets.tools({ prefix: "pets_", maxTools: 1 }),
      // A tool of the agent's own, not from any description.
      defineTool({
        name: "add_note",
        description: "Adds a note.",
        schema: z.object({ text: z.string() }),
        run: ({ text }) => {
          notes.push(text);
          return "noted";
        },
      }),
    ];
    agent = await serveAgent(
      {
        name: "fleet",
        title: "Fleet",
        description: "The Fleet API through its OpenAPI description.",
        systemPrompt: "You work the fleet with your tools.",
        skills: [{ id: "fleet", name: "Fleet", description: "Fleet", tags: ["fleet"], examples: ["list"] }],
        tools: () => tools,
      },
      {
        env: {
          PORT: "0",
          HOST: "127.0.0.1",
          AGENT_NAME: "fleet",
          LANGGRAPH_CHECKPOINT_TYPE: "memory",
          AUTH_MODE: "jwt",
          AUTH_JWKS_URL: idp.jwksUrl,
          AUTH_ISSUER: idp.issuer,
          AUTH_AUDIENCE: idp.audience,
          AUTHZ_POLICY_FILE: policyFile,
          ...llm.env,
        },
        logger,
      },
    );
    for (const user of ["alice", "admin"]) tokens[user] = await signIn(idp, user);
    alice = await connectAgent(agent.url, { token: tokens.alice ?? "" });
  });
  afterAll(async () => {
    await agent?.close();
    await Promise.all([fake?.close(), llm?.close(), idp?.close()]);
  });

  /** The agent's audit trail, as an administrator reads it. */
  async function audit(): Promise<AuditLine[]> {
    const response = await fetch(`${agent.url}/audit`, {
      headers: { authorization: `Bearer ${tokens.admin}` },
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { lines: AuditLine[] }).lines;
  }
  const apiRequests = () => fake.requests.filter(({ path }) => path.startsWith("/v1/"));

  it("is offered two tools for 800 operations, which every provider takes", async () => {
    const answer = await alice.send({ text: "hello" });
    expect(answer.text).toBe("Tell me what to do.");
    const offered = (llm.requests.at(-1)?.tools ?? []).map((tool) => tool.function.name).sort();
    expect(offered).toEqual([
      "add_note",
      "fleet_call_operation",
      "fleet_find_operations",
      "pets_call_operation",
      "pets_find_operations",
      "remember",
    ]);
    // Each provider's client, offered the catalog, against the scripted model speaking its dialect.
    const fleet = await openApiTools({
      document: largeDescription(),
      baseUrl: "http://127.0.0.1:9/v1",
      env: {},
      logger: createLogger({ level: "silent" }),
    });
    const catalog = fleet.tools().filter((tool) => tool.offered !== false);
    for (const provider of PROVIDER_NAMES) {
      const { model } = await createChatModel({ env: llm.envFor(provider) });
      const bound = (model as Required<Pick<typeof model, "bindTools">>).bindTools(
        catalog.map(({ tool }) => tool),
      );
      expect((await bound.invoke("hello")).text, provider).toBe("Tell me what to do.");
    }
  });

  it("finds an operation and reads with it at once, the key sent as the description says", async () => {
    const before = apiRequests().length;
    const answer = await alice.send({ text: 'find get a storage bucket then call {"bucketId": 5}' });
    expect(answer.state).toBe("completed");
    expect(answer.text).toContain("fleet_call_operation returned:");
    expect(answer.text).toContain('"name": "example"');
    const sent = apiRequests().slice(before);
    expect(sent.map(({ method, path }) => `${method} ${path}`)).toEqual(["GET /v1/storage/buckets/5"]);
    expect(sent[0]?.headers["x-api-key"]).toBe(KEY);
  });

  it("a change found the same way asks first, and runs once after yes, audited as the operation's own tool", async () => {
    const before = apiRequests().length;
    const asked = await alice.send({ text: 'find delete storage bucket then call {"bucketId": 9}' });
    expect(asked.state).toBe("input-required");
    expect(asked.question).toContain("Delete a storage bucket. (DELETE /storage/buckets/9)");
    expect(apiRequests().length).toBe(before);

    const done = await alice.send({
      text: "",
      contextId: asked.contextId,
      taskId: asked.taskId,
      decision: "approve",
      ...(asked.argsHashes ? { argsHashes: asked.argsHashes } : {}),
    });
    expect(done.state).toBe("completed");
    expect(
      apiRequests()
        .slice(before)
        .map(({ method, path }) => `${method} ${path}`),
    ).toEqual(["DELETE /v1/storage/buckets/9"]);
    const lines = (await audit()).filter(({ tool }) => tool === "fleet_delete_storage_bucket");
    expect(lines.map(({ kind, outcome }) => `${kind}${outcome ? ` ${outcome}` : ""}`)).toEqual([
      "attempt",
      "outcome done",
    ]);
    expect(lines[0]).toMatchObject({ confirmedBy: "alice", args: { bucketId: 9 }, policy: ["staff"] });
  });

  it("a policy that forbids an operation's tool forbids it through call_operation, audited by its name", async () => {
    const before = apiRequests().length;
    const refused = await alice.send({ text: 'find delete a billing account then call {"accountId": 3}' });
    expect(refused.state).toBe("completed"); // never asked
    expect(refused.text).toContain("may not change with fleet's fleet_delete_billing_account");
    expect(refused.text).toContain("billing-accounts-stay");
    expect(apiRequests().length).toBe(before);
    const denial = (await audit()).find(({ kind }) => kind === "denial");
    expect(denial).toMatchObject({ tool: "fleet_delete_billing_account", args: { accountId: 3 } });
    expect((await audit()).some(({ tool }) => tool.endsWith("call_operation"))).toBe(false);
  });

  it("an operation's own tool is not called by its name", async () => {
    const before = apiRequests().length;
    const refused = await alice.send({ text: 'call fleet_delete_storage_bucket {"bucketId": 4}' });
    expect(refused.state).toBe("completed");
    expect(refused.text).toContain("fleet_delete_storage_bucket is not a tool you can call by its name");
    expect(apiRequests().length).toBe(before);
  });

  it("call_operation routes only within its own description: not to another source's hidden tool, the agent's own tools, or a catalog", async () => {
    const before = apiRequests().length;
    for (const operation of [
      "pets_delete_pet",
      "delete_pet",
      "add_note",
      "fleet_call_operation",
      "pets_call_operation",
      "fleet_find_operations",
    ]) {
      const answer = await alice.send({
        text: `call fleet_call_operation ${JSON.stringify({ operation, arguments: { petId: 1, text: "x" } })}`,
      });
      expect(answer.state, operation).toBe("completed");
      expect(answer.text, operation).toContain(`"${operation}" is not an operation of the Fleet API`);
      expect(answer.text, operation).toContain("Nothing was run.");
    }
    expect(notes).toEqual([]);
    expect(apiRequests().length).toBe(before);
  });

  it("arguments naming another operation, method or path change nothing about which runs", async () => {
    const before = apiRequests().length;
    const answer = await alice.send({
      text: `call fleet_call_operation ${JSON.stringify({
        operation: "get_storage_bucket",
        arguments: {
          bucketId: 6,
          operation: "delete_storage_bucket",
          method: "DELETE",
          path: "/storage/buckets/6",
          tool: "fleet_delete_storage_bucket",
        },
      })}`,
    });
    expect(answer.state).toBe("completed"); // a read: nobody asked
    expect(
      apiRequests()
        .slice(before)
        .map(({ method, path }) => `${method} ${path}`),
    ).toEqual(["GET /v1/storage/buckets/6"]);
  });

  it("arguments the operation's schema refuses are an error the model reads, before anyone is asked", async () => {
    const before = apiRequests().length;
    const answer = await alice.send({
      text: `call fleet_call_operation ${JSON.stringify({ operation: "delete_storage_bucket", arguments: { bucketId: "all" } })}`,
    });
    expect(answer.state).toBe("completed");
    expect(answer.text).toContain("fleet_delete_storage_bucket does not take these arguments");
    expect(answer.text).toContain("bucketId");
    expect(apiRequests().length).toBe(before);
  });
});
