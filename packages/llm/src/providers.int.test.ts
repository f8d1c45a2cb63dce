import { type AIMessageChunk, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import {
  guardOutboundConnections,
  httpError,
  type OutboundGuard,
  PROVIDER_NAMES,
  replyFromToolResult,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createChatModel } from "./chat-model.js";

// Every LLM_PROVIDER, configured only through its env settings, against the scripted server speaking that
// provider's own protocol: the base URL settings reach the SDKs, and a tool turn completes.

const getIssue = tool(async ({ key }) => `${key}: Login page times out (status: In Progress)`, {
  name: "get_issue",
  description: "Fetch a Jira issue by key",
  schema: z.object({ key: z.string().describe("Issue key, e.g. PLAT-1") }),
});

const DIALECT = {
  openai: "openai",
  "azure-openai": "openai",
  "anthropic-claude": "anthropic",
  "aws-bedrock": "bedrock",
  "google-gemini": "gemini",
  ollama: "ollama",
} as const;

let llm: ScriptedLlm;
let guard: OutboundGuard;
const flaky = new Set<string>();
beforeAll(async () => {
  guard = guardOutboundConnections();
  llm = await startScriptedLlm({
    script: rules(
      [
        {
          lastUser: /\b([A-Z]+-\d+)\b/,
          reply: (_r, { match }) => ({ toolCalls: [{ name: "get_issue", args: { key: match?.[1] } }] }),
        },
        { afterTool: "get_issue", reply: replyFromToolResult() },
        {
          // The first request of each "flaky <n>" is refused as rate limited, with Retry-After: 1.
          lastUser: /^flaky \S+$/,
          reply: (_r, { userText }) => {
            if (flaky.has(userText)) return say(`recovered ${userText}`);
            flaky.add(userText);
            throw httpError(429, "Rate limit reached; retry after 1s.", { retryAfterSeconds: 1 });
          },
        },
      ],
      say("Hello from the scripted model"),
    ),
  });
});
afterAll(async () => {
  await llm.close();
  guard.restore();
});

describe.each(PROVIDER_NAMES)("LLM_PROVIDER=%s", (provider) => {
  it("completes a tool turn over the provider's protocol, whole and streamed", async () => {
    const choice = await createChatModel({ env: llm.envFor(provider) });
    expect(choice).toMatchObject({ provider, offline: false });
    const model = choice.model.bindTools?.([getIssue]);
    if (!model) throw new Error(`${provider}: no bindTools`);
    const ask = new HumanMessage("What is the status of PLAT-7?");

    const call = await model.invoke([ask]);
    expect(call.tool_calls?.map((c) => [c.name, c.args])).toEqual([["get_issue", { key: "PLAT-7" }]]);
    // ChatOllama streams even for invoke(); the others send a whole request.
    expect(llm.calls.at(-1)).toMatchObject({ dialect: DIALECT[provider], stream: provider === "ollama" });
    const result = await getIssue.invoke(call.tool_calls?.[0] ?? { name: "", args: {}, id: "" });
    expect(result).toBeInstanceOf(ToolMessage);

    let answer = "";
    let merged: AIMessageChunk | undefined;
    for await (const chunk of await model.stream([ask, call, result])) {
      answer += chunk.text;
      merged = merged === undefined ? chunk : merged.concat(chunk);
    }
    expect(answer).toBe("get_issue returned: PLAT-7: Login page times out (status: In Progress)");
    expect(llm.calls.at(-1)).toMatchObject({ dialect: DIALECT[provider], stream: true });
    expect(merged?.usage_metadata?.input_tokens ?? 0).toBeGreaterThan(0);
  });
});

describe("prompt caching", () => {
  const system = `You are the Jira agent. ${"Keep to the team's conventions for issues and comments. ".repeat(80)}`;

  it.each([
    ["anthropic-claude", {}],
    ["aws-bedrock", { AWS_BEDROCK_ENABLE_PROMPT_CACHE: "true" }],
  ] as const)(
    "%s: the second turn reads the system prompt and tools from the cache",
    async (provider, extra) => {
      const { model } = await createChatModel({ env: { ...llm.envFor(provider), ...extra } });
      const bound = model.bindTools?.([getIssue]);
      if (!bound) throw new Error("no bindTools");
      const first = [new SystemMessage(system), new HumanMessage("hello")];
      const one = await bound.invoke(first);
      const two = await bound.invoke([...first, one, new HumanMessage("and again")]);
      expect(one.usage_metadata?.input_token_details?.cache_creation).toBeGreaterThan(1000);
      expect(two.usage_metadata?.input_token_details?.cache_read).toBeGreaterThan(1000);
      const body = JSON.stringify(llm.calls.at(-1)?.body);
      expect(body).toContain(provider === "aws-bedrock" ? '"cachePoint"' : '"cache_control"');
    },
  );

  it("is off when the setting says so, and Bedrock's is off by default (as CAIPE's)", async () => {
    for (const env of [
      { ...llm.envFor("anthropic-claude"), ANTHROPIC_ENABLE_PROMPT_CACHE: "false" },
      llm.envFor("aws-bedrock"),
    ]) {
      const { model } = await createChatModel({ env });
      const reply = await model.invoke([new SystemMessage(system), new HumanMessage("hello")]);
      expect(reply.usage_metadata?.input_token_details?.cache_creation ?? 0).toBe(0);
      expect(JSON.stringify(llm.calls.at(-1)?.body)).not.toMatch(/cachePoint|cache_control/);
    }
  });
});

describe("a rate-limited request", () => {
  // The OpenAI and Anthropic SDKs wait the Retry-After they are given; the AWS SDK and LangChain's
  // caller (Gemini) retry with their own backoff. ChatOllama does not retry at all (see below).
  const waitsRetryAfter = new Set(["openai", "azure-openai", "anthropic-claude"]);

  it.each(PROVIDER_NAMES.filter((p) => p !== "ollama"))(
    "%s: retried, the turn completes",
    async (provider) => {
      const { model } = await createChatModel({ env: llm.envFor(provider) });
      const started = performance.now();
      const reply = await model.invoke(`flaky ${provider}`);
      expect(reply.text).toBe(`recovered flaky ${provider}`);
      expect(llm.calls.filter((c) => JSON.stringify(c.body).includes(`flaky ${provider}`))).toHaveLength(2);
      if (waitsRetryAfter.has(provider)) expect(performance.now() - started).toBeGreaterThan(900);
    },
  );

  it("ollama: not retried; the 429's own message reaches the caller", async () => {
    const { model } = await createChatModel({ env: llm.envFor("ollama") });
    await expect(model.invoke("flaky ollama")).rejects.toThrow("Rate limit reached; retry after 1s.");
    expect(llm.calls.filter((c) => JSON.stringify(c.body).includes("flaky ollama"))).toHaveLength(1);
  });
});
