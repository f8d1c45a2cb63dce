import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type AgentConnection, connectAgent } from "@switchboard/a2a-client";
import { createLogger } from "@switchboard/common";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import { type IdentityProvider, signIn, startIdentityProvider } from "@switchboard-testing/test-idp";
import {
  callTool,
  replyFromToolResult,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Access } from "../src/authz/access.js";
import type { AgentDefinition } from "../src/definition.js";
import { guardedTools } from "../src/graph/guarded-tools.js";
import { type RunningAgent, serveAgent } from "../src/serve.js";
import { type AgentTool, defineRoutingTool, defineTool } from "../src/tools/define-tool.js";

/** What the desk's hidden tools did, kept in the test. */
const tickets: Array<{ project: string; summary: string }> = [];

/** A desk whose tools are hidden behind `route`, a routing tool that names any tool it is told to. */
function deskTools(): AgentTool[] {
  const list = defineTool({
    name: "list_tickets",
    description: "List a project's tickets",
    schema: z.object({ project: z.string() }),
    resource: ({ project }) => ({ project: project.toUpperCase() }),
    offered: false,
    run: ({ project }) => JSON.stringify(tickets.filter((ticket) => ticket.project === project)),
  });
  const file = defineTool({
    name: "file_ticket",
    description: "File a ticket in a project",
    schema: z.object({ project: z.string(), summary: z.string() }),
    resource: ({ project }) => ({ project: project.toUpperCase() }),
    confirm: ({ project, summary }) => `File "${summary}" in ${project}?`,
    offered: false,
    run: ({ project, summary }) => {
      tickets.push({ project, summary });
      return `filed "${summary}" in ${project}`;
    },
  });
  // Hostile on purpose: it routes wherever its arguments say, so the runtime's own rules are what hold.
  const routeSchema = z.object({ tool: z.string(), args: z.object({}).catchall(z.unknown()).default({}) });
  const route = defineRoutingTool({
    name: "route",
    description: "Calls a desk tool by name",
    schema: routeSchema,
    routes: ({ tool, args }) => ({ tool, args }),
  });
  const other = defineRoutingTool({
    name: "other_route",
    description: "Calls a desk tool by name, too",
    schema: routeSchema,
    routes: ({ tool, args }) => ({ tool, args }),
  });
  const nowhere: AgentTool = {
    tool: defineTool({ name: "nowhere", description: "Routes nowhere", schema: z.object({}), run: () => "" })
      .tool,
    routes: () => undefined,
  };
  const refusing = defineRoutingTool({
    name: "refusing",
    description: "Says why it routes nowhere",
    schema: z.object({}),
    routes: () => {
      throw new Error("refusing: no such operation (try find)");
    },
  });
  return [list, file, route, other, nowhere, refusing];
}

const desk: AgentDefinition = {
  name: "desk",
  title: "Desk",
  description: "Files and lists tickets by project.",
  systemPrompt: "You work the ticket desk.",
  skills: [{ id: "desk", name: "Desk", description: "Tickets", tags: ["tickets"], examples: ["list"] }],
  tools: deskTools,
};

const POLICY = `
@id("staff")
permit(principal, action in [Switchboard::Action::"reach", Switchboard::Action::"read", Switchboard::Action::"change"], resource);

@id("admins-audit")
permit(principal in Switchboard::Group::"admins", action == Switchboard::Action::"audit", resource);

@id("nobody-touches-vault")
forbid(principal, action == Switchboard::Action::"change", resource in Desk::Project::"VAULT");
`;

interface AuditLine {
  kind: string;
  tool: string;
  args: Record<string, unknown>;
  resource?: Record<string, string>;
  outcome?: string;
  confirmedBy?: string;
}

// A routing tool's call is decided, asked about, audited and run as the call of the tool it names,
// over A2A with a real identity provider and policy; its routes that lead nowhere, round, or on
// are refused before anything runs.
describe("routed calls", () => {
  const policyFile = join(scratchDir("routed-calls"), "policies.cedar");
  let llm: ScriptedLlm;
  let idp: IdentityProvider;
  let agent: RunningAgent;
  let alice: AgentConnection;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    writeFileSync(policyFile, POLICY);
    [llm, idp] = await Promise.all([
      startScriptedLlm({
        script: rules(
          [
            {
              lastUser: /^call (\w+) (\{.*\})$/s,
              reply: (_request, { match }) => callTool(match?.[1] ?? "", JSON.parse(match?.[2] ?? "{}")),
            },
            { afterTool: true, reply: replyFromToolResult() },
          ],
          say("Which tool?"),
        ),
      }),
      startIdentityProvider({ users: { alice: { groups: [] }, admin: { groups: ["admins"] } } }),
    ]);
    agent = await serveAgent(desk, {
      env: {
        PORT: "0",
        HOST: "127.0.0.1",
        AGENT_NAME: "desk",
        LANGGRAPH_CHECKPOINT_TYPE: "memory",
        LANGGRAPH_STORE_TYPE: "none",
        AUTH_MODE: "jwt",
        AUTH_JWKS_URL: idp.jwksUrl,
        AUTH_ISSUER: idp.issuer,
        AUTH_AUDIENCE: idp.audience,
        AUTHZ_POLICY_FILE: policyFile,
        ...llm.env,
      },
      logger: createLogger({ level: "silent" }),
    });
    for (const user of ["alice", "admin"]) tokens[user] = await signIn(idp, user);
    alice = await connectAgent(agent.url, { token: tokens.alice ?? "" });
  });
  afterAll(async () => {
    await agent?.close();
    await Promise.all([llm?.close(), idp?.close()]);
  });

  async function audit(): Promise<AuditLine[]> {
    const response = await fetch(`${agent.url}/audit`, {
      headers: { authorization: `Bearer ${tokens.admin}` },
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { lines: AuditLine[] }).lines;
  }
  const call = (tool: string, args: Record<string, unknown>) =>
    alice.send({ text: `call ${tool} ${JSON.stringify(args)}` });

  it("offers the model only the tools offered", async () => {
    await alice.send({ text: "hello" });
    const offered = (llm.requests.at(-1)?.tools ?? []).map((tool) => tool.function.name).sort();
    expect(offered).toEqual(["nowhere", "other_route", "refusing", "route"]);
  });

  it("runs a routed read as the tool it names, answered to the routing call", async () => {
    tickets.push({ project: "PLAT", summary: "rotate keys" });
    const answer = await call("route", { tool: "list_tickets", args: { project: "PLAT" } });
    expect(answer.state).toBe("completed");
    // The answer is the routing call's (its name), with the named tool's result.
    expect(answer.text).toContain('route returned: [{"project":"PLAT","summary":"rotate keys"}]');
  });

  it("asks before a routed change with that tool's question and arguments, runs it once after yes, audited by its name", async () => {
    const before = tickets.length;
    const asked = await call("route", {
      tool: "file_ticket",
      args: { project: "PLAT", summary: "renew cert" },
    });
    expect(asked.state).toBe("input-required");
    expect(asked.question).toContain('File "renew cert" in PLAT?');
    expect(tickets.length).toBe(before);
    const done = await alice.send({
      text: "",
      contextId: asked.contextId,
      taskId: asked.taskId,
      decision: "approve",
      ...(asked.argsHashes ? { argsHashes: asked.argsHashes } : {}),
    });
    expect(done.state).toBe("completed");
    expect(tickets.slice(before)).toEqual([{ project: "PLAT", summary: "renew cert" }]);
    const lines = (await audit()).filter(({ kind }) => kind !== "denial");
    expect(lines.map(({ kind, tool, outcome }) => `${kind} ${tool}${outcome ? ` ${outcome}` : ""}`)).toEqual([
      "attempt file_ticket",
      "outcome file_ticket done",
    ]);
    expect(lines[0]).toMatchObject({ confirmedBy: "alice", resource: { project: "PLAT" } });
  });

  it("decides a routed call on the named tool's resource: a forbidden project is refused, never asked, audited", async () => {
    const before = tickets.length;
    const refused = await call("route", { tool: "file_ticket", args: { project: "vault", summary: "peek" } });
    expect(refused.state).toBe("completed");
    expect(refused.text).toContain("may not change with desk's file_ticket on project VAULT");
    expect(refused.text).toContain("nobody-touches-vault");
    expect(tickets.length).toBe(before);
    expect((await audit()).find(({ kind }) => kind === "denial")).toMatchObject({
      tool: "file_ticket",
      resource: { project: "VAULT" },
    });
  });

  it("refuses a hidden tool called by its name", async () => {
    const before = tickets.length;
    const refused = await call("file_ticket", { project: "PLAT", summary: "direct" });
    expect(refused.state).toBe("completed");
    expect(refused.text).toContain(
      "file_ticket is not a tool you can call by its name: call it through route",
    );
    expect(tickets.length).toBe(before);
  });

  it("refuses routes to no tool, an unknown one, itself, another routing tool, and arguments the tool refuses", async () => {
    const before = tickets.length;
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ["nowhere", {}, "nowhere named no tool to call. Nothing was run."],
      ["refusing", {}, "refusing: no such operation (try find). Nothing was run."],
      [
        "route",
        { tool: "drop_tables", args: {} },
        "route: drop_tables is not a tool of this agent. Nothing was run.",
      ],
      [
        "route",
        { tool: "route", args: { tool: "file_ticket" } },
        "route cannot call route: a routing tool calls only",
      ],
      [
        "route",
        { tool: "other_route", args: { tool: "file_ticket", args: { project: "PLAT", summary: "loop" } } },
        "route cannot call other_route",
      ],
      ["route", { tool: "file_ticket", args: { project: 7 } }, "file_ticket does not take these arguments"],
      ["route", { args: {} }, "route: "],
    ];
    for (const [tool, args, expected] of cases) {
      const answer = await call(tool, args);
      expect(answer.state, JSON.stringify(args)).toBe("completed");
      expect(answer.text, JSON.stringify(args)).toContain(expected);
    }
    expect(tickets.length).toBe(before);
  });

  it("routes the same way for a graph of an agent's own (GraphDeps.guardTools)", async () => {
    const guarded = guardedTools(deskTools(), new Access("desk", undefined, undefined, []));
    expect(guarded.tools.map(({ name }) => name).sort()).toEqual([
      "nowhere",
      "other_route",
      "refusing",
      "route",
    ]);
    const read = await guarded.call(
      {
        name: "route",
        args: { tool: "list_tickets", args: { project: "PLAT" } },
        id: "1",
        type: "tool_call",
      },
      {},
    );
    expect(read.name).toBe("route");
    expect(read.content).toContain("rotate keys");
    const hidden = await guarded.call(
      { name: "list_tickets", args: { project: "PLAT" }, id: "2", type: "tool_call" },
      {},
    );
    expect(hidden.status).toBe("error");
    expect(hidden.content).toContain("list_tickets is not a tool you can call by its name");
  });
});
