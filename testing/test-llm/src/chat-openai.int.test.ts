import {
  AIMessage,
  type AIMessageChunk,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { ChatOpenAI, type ChatOpenAIFields } from "@langchain/openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { httpError } from "./errors.js";
import { callTool, echo, replyFromToolResult, say } from "./replies.js";
import { rules } from "./rules.js";
import { type ScriptedLlm, startScriptedLlm } from "./server.js";

// The real @langchain/openai client against the scripted server: what agent tests will do.

const getIssue = tool(async ({ key }) => `${key}: Login page times out (status: In Progress)`, {
  name: "get_issue",
  description: "Fetch a Jira issue by key",
  schema: z.object({ key: z.string().describe("Issue key, e.g. PROJ-1") }),
});

function model(llm: ScriptedLlm, fields: ChatOpenAIFields = {}) {
  return new ChatOpenAI({
    model: "gpt-4o-mini",
    apiKey: "sk-test",
    configuration: { baseURL: llm.url },
    maxRetries: 0,
    ...fields,
  });
}

describe("ChatOpenAI against the scripted LLM", () => {
  let llm: ScriptedLlm;
  beforeAll(async () => {
    llm = await startScriptedLlm({
      script: rules(
        [
          {
            lastUser: /\b([A-Z]+-\d+)\b/,
            reply: (_req, { match }) => callTool("get_issue", { key: match?.[1] }),
          },
          {
            afterTool: "get_issue",
            reply: replyFromToolResult((results) => `Here is the issue: ${results[0]?.content}`),
          },
          {
            lastUser: /unauthorized/,
            reply: () => Promise.reject(httpError(401, "Incorrect API key provided: sk-te****.")),
          },
          {
            lastUser: /rate limit/,
            reply: () => Promise.reject(httpError(429, "Rate limit reached for gpt-4o-mini")),
          },
          {
            lastUser: /server error/,
            reply: () => Promise.reject(httpError(500, "The server had an error")),
          },
          { system: /pirate/, reply: say("Arr, ahoy there matey!") },
        ],
        say("Hello! How can I help you today?"),
      ),
    });
  });
  afterAll(() => llm.close());

  it("returns the scripted reply with the server's token usage", async () => {
    const reply = await model(llm).invoke("hi");
    expect(reply.content).toBe("Hello! How can I help you today?");
    expect(reply.usage_metadata?.output_tokens).toBeGreaterThan(0);
    expect(reply.usage_metadata?.total_tokens).toBe(
      (reply.usage_metadata?.input_tokens ?? 0) + (reply.usage_metadata?.output_tokens ?? 0),
    );
  });

  it("lets the system prompt pick the script, so agents can share one server", async () => {
    const reply = await model(llm).invoke([
      new SystemMessage("You are a pirate."),
      new HumanMessage("hello"),
    ]);
    expect(reply.content).toBe("Arr, ahoy there matey!");
  });

  it("sends bound zod tools and returns the scripted tool call", async () => {
    const reply = await model(llm).bindTools([getIssue]).invoke("What is the state of PROJ-42?");
    expect(reply.tool_calls).toHaveLength(1);
    expect(reply.tool_calls?.[0]).toMatchObject({
      name: "get_issue",
      args: { key: "PROJ-42" },
      type: "tool_call",
    });
    expect(reply.tool_calls?.[0]?.id).toMatch(/^call_/);
    const sent = llm.requests.at(-1);
    expect(sent?.tools?.[0]?.function).toMatchObject({
      name: "get_issue",
      parameters: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
    });
  });

  it("completes a tool loop: the final answer carries the tool's result", async () => {
    const bound = model(llm).bindTools([getIssue]);
    const messages = [new HumanMessage("Summarise PROJ-7")];
    const first = await bound.invoke(messages);
    const call = first.tool_calls?.[0];
    if (!call) throw new Error("expected a tool call");
    const result = await getIssue.invoke(call);
    expect(result).toBeInstanceOf(ToolMessage);
    const final = await bound.invoke([...messages, first, result]);
    expect(final.tool_calls ?? []).toEqual([]);
    expect(final.content).toBe("Here is the issue: PROJ-7: Login page times out (status: In Progress)");
    const sent = llm.requests.at(-1);
    expect(sent?.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
  });

  it("streams the reply token by token through .stream()", async () => {
    const chunks: AIMessageChunk[] = [];
    for await (const chunk of await model(llm).stream("hi")) chunks.push(chunk);
    const texts = chunks.map((c) => c.content).filter((c) => c !== "");
    expect(texts.length).toBeGreaterThan(3);
    expect(texts.join("")).toBe("Hello! How can I help you today?");
    const merged = chunks.reduce((acc, c) => acc.concat(c));
    expect(merged.usage_metadata?.output_tokens).toBeGreaterThan(0);
    expect(llm.requests.at(-1)?.stream_options).toEqual({ include_usage: true });
  });

  it("streams tool-call chunks that assemble into the tool call", async () => {
    const chunks: AIMessageChunk[] = [];
    for await (const chunk of await model(llm).bindTools([getIssue]).stream("look at OPS-1234"))
      chunks.push(chunk);
    const withToolChunks = chunks.filter((c) => (c.tool_call_chunks?.length ?? 0) > 0);
    expect(withToolChunks.length).toBeGreaterThan(2);
    const merged = chunks.reduce((acc, c) => acc.concat(c));
    expect(merged.tool_calls).toHaveLength(1);
    expect(merged.tool_calls?.[0]).toMatchObject({ name: "get_issue", args: { key: "OPS-1234" } });
    expect(merged.response_metadata.finish_reason).toBe("tool_calls");
  });

  it("surfaces an invalid key as a 401 authentication error", async () => {
    const error = await model(llm)
      .invoke("unauthorized please")
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401, lc_error_code: "MODEL_AUTHENTICATION" });
    expect(String(error)).toMatch(/Incorrect API key provided/);
  });

  it("surfaces rate limits and server errors with their status and message", async () => {
    const limited = await model(llm)
      .invoke("rate limit me")
      .catch((e: unknown) => e);
    expect(limited).toMatchObject({ status: 429, lc_error_code: "MODEL_RATE_LIMIT" });
    expect(String(limited)).toMatch(/Rate limit reached/);
    const failed = await model(llm)
      .invoke("server error now")
      .catch((e: unknown) => e);
    expect(failed).toMatchObject({ status: 500 });
    expect(String(failed)).toMatch(/The server had an error/);
  });

  it("fails a streaming call with the same error", async () => {
    const error = await (async () => {
      for await (const _ of await model(llm).stream("rate limit me")) {
        // drain
      }
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429 });
  });

  it("keeps multi-turn history: the second turn's user message drives the reply", async () => {
    const reply = await model(llm)
      .bindTools([getIssue])
      .invoke([new HumanMessage("hi"), new AIMessage("Hello!"), new HumanMessage("and ABC-9?")]);
    expect(reply.tool_calls?.[0]?.args).toEqual({ key: "ABC-9" });
  });
});

describe("ChatOpenAI concurrency", () => {
  it("answers 200 parallel invokes and streams, each with its own reply", async () => {
    const llm = await startScriptedLlm({ script: echo("you said: "), latencyMs: 20 });
    try {
      const chat = model(llm);
      const replies = await Promise.all(
        Array.from({ length: 200 }, async (_, i) => {
          if (i % 2 === 0) return (await chat.invoke(`message ${i}`)).content;
          let text = "";
          for await (const chunk of await chat.stream(`message ${i}`)) text += chunk.content;
          return text;
        }),
      );
      replies.forEach((reply, i) => {
        expect(reply).toBe(`you said: message ${i}`);
      });
      expect(llm.requests).toHaveLength(200);
    } finally {
      await llm.close();
    }
  });
});
