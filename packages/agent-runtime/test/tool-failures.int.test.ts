import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { ClientFactory } from "@a2a-js/sdk/client";
import { createLogger, SwitchboardError } from "@switchboard/common";
import {
  callTool,
  lastUserText,
  replyFromToolResult,
  type ScriptedLlm,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { testMongoEnv, uniqueDbName } from "@switchboard-testing/test-mongo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentDefinition } from "../src/definition.js";
import { type RunningAgent, serveAgent } from "../src/serve.js";
import { defineTool } from "../src/tools/define-tool.js";
import { requestJson } from "../src/vendor-client/http-json.js";
import { send, stateOf, statusText } from "./a2a.js";

/** What no text the model or the user reads may hold: a stack frame, a file of this machine. */
const LEAKS = [/\n\s+at /, /\/work\//, /node_modules/, /\.ts:\d+/, /file:\/\//];
const STACKED = [
  "lookup failed",
  "    at lookupTicket (/work/wt/requests/packages/desk/src/tools.ts:41:11)",
  "    at async run (/work/main/node_modules/.pnpm/langchain@1.5.14/dist/tools.js:88:5)",
].join("\n");

describe("a tool's failure, as the model and the user read it over a real turn", () => {
  const dbName = uniqueDbName("toolfail");
  const logLines: string[] = [];
  let llm: ScriptedLlm;
  let agent: RunningAgent;
  let vendor: Server;
  let vendorUrl: string;

  /** Each tool fails its own way. */
  const failing: AgentDefinition = {
    name: "desk",
    title: "Desk",
    description: "Tickets.",
    systemPrompt: "You work the ticket desk.",
    skills: [{ id: "desk", name: "Desk", description: "Tickets", tags: ["tickets"], examples: ["x"] }],
    tools: () => {
      const tool = (name: string, run: () => Promise<string> | string) =>
        defineTool({ name, description: name, schema: z.object({}), run });
      return [
        tool("stacked", () => {
          throw new Error(STACKED);
        }),
        tool("missing_file", async () => readFile("/work/nowhere/desk-settings.json", "utf8")),
        tool("typo", () => (undefined as unknown as { name: string }).name),
        tool("thrown_string", () => {
          throw "/work/wt/requests/secret-path is broken";
        }),
        tool("vendor", () => requestJson<string>({ url: `${vendorUrl}/tickets/PLAT-9` })),
        tool("switchboard", () => {
          throw new SwitchboardError(
            "desk.closed",
            "third-party",
            "The desk is closed on Sundays: ask on Monday.",
          );
        }),
        tool("sentence", () => {
          throw new Error('No ticket desk named "ops"; list_desks shows them.');
        }),
      ];
    },
  };

  beforeAll(async () => {
    vendor = createServer((_req, res) => {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ message: "Ticket PLAT-9 does not exist" }));
    });
    await new Promise<void>((resolve) => vendor.listen(0, "127.0.0.1", resolve));
    vendorUrl = `http://127.0.0.1:${(vendor.address() as AddressInfo).port}`;
    // The model calls the tool the user names, then says what it got.
    llm = await startScriptedLlm({
      script: (request) => {
        const last = request.messages.at(-1);
        if (last?.role === "tool") return replyFromToolResult()(request);
        return callTool(lastUserText(request) ?? "");
      },
    });
    agent = await serveAgent(failing, {
      env: { PORT: "0", HOST: "127.0.0.1", AGENT_NAME: "desk", ...testMongoEnv(dbName), ...llm.env },
      logger: createLogger({
        level: "info",
        destination: new Writable({
          write(chunk, _encoding, done) {
            logLines.push(chunk.toString());
            done();
          },
        }),
      }),
    });
  });
  afterAll(async () => {
    await agent?.close();
    await llm?.close();
    await new Promise((resolve) => vendor?.close(resolve));
  });

  async function turn(tool: string): Promise<{ user: string; model: string }> {
    const client = await new ClientFactory().createFromUrl(agent.url);
    const before = llm.requests.length;
    const task = await send(client, tool, randomUUID());
    expect(stateOf(task)).toBe("TASK_STATE_COMPLETED");
    const sent = llm.requests.slice(before).flatMap((request) => request.messages);
    const result = sent.find((message) => message.role === "tool");
    const user = `${statusText(task)}\n${JSON.stringify(task.artifacts ?? [])}`;
    for (const text of [user, JSON.stringify(sent)])
      for (const leak of LEAKS) expect(text, `${tool}: ${text}`).not.toMatch(leak);
    return { user, model: String(result?.content ?? "") };
  }

  it("a stack and paths of this machine in an Error's message: the class only, the detail in the log", async () => {
    const { user, model } = await turn("stacked");
    expect(model).toBe("stacked failed (Error)");
    expect(user).toContain("stacked failed (Error)");
    expect(logLines.join("")).toContain("/work/wt/requests/packages/desk/src/tools.ts:41:11");
  });

  it("a file error names its code, a program's TypeError its class, a thrown string its type", async () => {
    expect((await turn("missing_file")).model).toBe("missing_file failed (ENOENT)");
    expect((await turn("typo")).model).toBe("typo failed (TypeError)");
    expect((await turn("thrown_string")).model).toBe("thrown_string failed (string)");
  });

  it("the vendor's status and words, a SwitchboardError's message and a tool's own sentence reach both", async () => {
    const vendorTurn = await turn("vendor");
    expect(vendorTurn.model).toBe(
      "vendor failed: the API answered HTTP 404 to GET /tickets/PLAT-9: Ticket PLAT-9 does not exist",
    );
    expect(vendorTurn.user).toContain("Ticket PLAT-9 does not exist");
    expect((await turn("switchboard")).model).toBe(
      "switchboard failed: The desk is closed on Sundays: ask on Monday.",
    );
    expect((await turn("sentence")).model).toBe(
      'sentence failed: No ticket desk named "ops"; list_desks shows them.',
    );
  });
});
