import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { createLogger, type Logger } from "@switchboard/common";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import {
  callTool,
  replyFromToolResult,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import type { AgentDefinition } from "../src/definition.js";
import { type RunningAgent, serveAgent } from "../src/serve.js";
import { clientFor, userMessage } from "./a2a.js";

/** An agent with no tools of its own: everything it can do comes from its MCP servers. */
export const deskAgent: AgentDefinition = {
  name: "desk",
  title: "Desk",
  description: "Works the ticket desk through its MCP server.",
  systemPrompt: "You work the ticket desk with your tools.",
  skills: [
    { id: "desk", name: "Desk", description: "Tickets", tags: ["tickets"], examples: ["list tickets"] },
  ],
  tools: () => [],
};

/** A scripted model that does what it is told: `call <tool> <json args>`, then repeats the tool's answer. */
export function startObedientLlm(): Promise<ScriptedLlm> {
  return startScriptedLlm({
    script: rules(
      [
        {
          lastUser: /^call (\w+)(?: (.+))?$/s,
          reply: (_request, { match }) => callTool(match?.[1] ?? "", match?.[2] ? JSON.parse(match[2]) : {}),
        },
        { afterTool: true, reply: replyFromToolResult() },
      ],
      say("Tell me which tool to call."),
    ),
  });
}

/** Everything the agent logged, at debug level: what a secret must never appear in. */
export class CapturedLog {
  readonly stream = new PassThrough();
  private text = "";
  readonly logger: Logger = createLogger({ level: "debug", destination: this.stream });

  constructor() {
    this.stream.on("data", (chunk: Buffer) => {
      this.text += chunk.toString();
    });
  }

  get output(): string {
    return this.text;
  }
}

/** A desk state file in a scratch folder of its own (removed when the test file ends). */
export function stateFile(): string {
  return join(scratchDir("desk-mcp"), "desk.json");
}

/** Serves the desk agent in this process with the given env (its MCP servers among it). */
export function serveDeskAgent(env: Record<string, string>, log = new CapturedLog()): Promise<RunningAgent> {
  return serveAgent(deskAgent, {
    env: { PORT: "0", HOST: "127.0.0.1", AGENT_NAME: "desk", LANGGRAPH_CHECKPOINT_TYPE: "memory", ...env },
    logger: log.logger,
  });
}

/** Sends a message as a stream and collects the texts of the working-status updates and the final state. */
export async function streamTurn(
  url: string,
  text: string,
  contextId = `ctx-${randomUUID()}`,
): Promise<{ progress: string[]; metadata: Array<Record<string, unknown>> }> {
  const client = await clientFor(url);
  const progress: string[] = [];
  const metadata: Array<Record<string, unknown>> = [];
  for await (const event of client.sendMessageStream({
    tenant: "",
    message: userMessage(text, contextId),
    configuration: undefined,
    metadata: undefined,
  })) {
    const payload = event.payload;
    if (payload?.$case !== "statusUpdate") continue;
    const part = payload.value.status?.message?.parts[0]?.content;
    if (part?.$case === "text") progress.push(part.value);
    if (payload.value.metadata) metadata.push(payload.value.metadata as Record<string, unknown>);
  }
  return { progress, metadata };
}
