import type { MessageContent } from "@langchain/core/messages";
import { HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { ChatOpenAI, ChatOpenAICompletions, type ChatOpenAIFields } from "@langchain/openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { guardOutboundConnections, type OutboundGuard } from "./outbound-guard.js";
import { callTool, replyFromToolResult, say } from "./replies.js";
import { rules } from "./rules.js";
import { type ScriptedLlm, startScriptedLlm } from "./server.js";

// @langchain/core downloads tiktoken ranks from tiktoken.pages.dev whenever a chat model counts tokens
// (see README). These tests prove an agent turn against the scripted server stays on loopback.

const lookup = tool(async ({ host }) => `${host} resolves to 10.0.0.7`, {
  name: "lookup_host",
  description: "Resolve a host name",
  schema: z.object({ host: z.string() }),
});

// With `streaming: true`, ChatOpenAI#invoke estimates usage with tiktoken; this counts offline instead.
class OfflineTokenCountCompletions extends ChatOpenAICompletions {
  override async getNumTokens(content: MessageContent): Promise<number> {
    const text = typeof content === "string" ? content : JSON.stringify(content);
    return Math.ceil(text.length / 4);
  }
}

describe("an agent turn against the scripted LLM", () => {
  let llm: ScriptedLlm;
  let guard: OutboundGuard;
  const fields = (): ChatOpenAIFields => ({
    model: "gpt-4o-mini",
    apiKey: "sk-test",
    configuration: { baseURL: llm.url },
    maxRetries: 0,
  });

  beforeAll(async () => {
    llm = await startScriptedLlm({
      script: rules(
        [
          {
            lastUser: /resolve (\S+)/,
            reply: (_req, { match }) => callTool("lookup_host", { host: match?.[1] }),
          },
          { afterTool: "lookup_host", reply: replyFromToolResult() },
        ],
        say("Nothing to resolve."),
      ),
    });
    guard = guardOutboundConnections();
  });
  afterAll(async () => {
    guard.restore();
    await llm.close();
  });

  it("opens sockets to 127.0.0.1 only across invoke, stream and a tool call", async () => {
    const chat = new ChatOpenAI(fields()).bindTools([lookup]);
    const plain = await chat.invoke("hello");
    expect(plain.content).toBe("Nothing to resolve.");

    let streamed = "";
    for await (const chunk of await chat.stream("hello again")) streamed += chunk.content;
    expect(streamed).toBe("Nothing to resolve.");

    const question = new HumanMessage("please resolve db.internal");
    const callChunks = [];
    for await (const chunk of await chat.stream([question])) callChunks.push(chunk);
    const call = callChunks.reduce((acc, c) => acc.concat(c));
    const toolCall = call.tool_calls?.[0];
    if (!toolCall) throw new Error("expected a tool call");
    const result = await lookup.invoke(toolCall);
    const answer = await chat.invoke([question, call, result]);
    expect(answer.content).toBe("lookup_host returned: db.internal resolves to 10.0.0.7");

    expect(guard.attempts.some((a) => a.via === "connect" && a.host === "127.0.0.1")).toBe(true);
    expect(guard.disallowedHosts()).toEqual([]);
  });

  it("stays offline with streaming: true once token counting is local", async () => {
    const base = { ...fields(), streaming: true };
    const chat = new ChatOpenAI({ ...base, completions: new OfflineTokenCountCompletions(base) });
    const reply = await chat.invoke("hello");
    expect(reply.content).toBe("Nothing to resolve.");
    expect(llm.requests.at(-1)?.stream).toBe(true);
    expect(guard.disallowedHosts()).toEqual([]);
  });
});
