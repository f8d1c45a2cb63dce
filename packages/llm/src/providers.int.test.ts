import { type AIMessageChunk, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import {
  contextTooLong,
  guardOutboundConnections,
  httpError,
  type OutboundGuard,
  PROVIDER_NAMES,
  replyFromToolResult,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
  unknownModel,
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

const KEY = "sk-providers-test-key";
let llm: ScriptedLlm;
let guard: OutboundGuard;
const flaky = new Set<string>();
beforeAll(async () => {
  guard = guardOutboundConnections();
  llm = await startScriptedLlm({
    apiKey: KEY,
    script: rules(
      [
        {
          lastUser: /\b([A-Z]+-\d+)\b/,
          reply: (_r, { match }) => ({ toolCalls: [{ name: "get_issue", args: { key: match?.[1] } }] }),
        },
        { afterTool: "get_issue", reply: replyFromToolResult() },
        {
          lastUser: /^busy for 30s$/,
          reply: () => Promise.reject(httpError(429, "Slow down.", { retryAfterSeconds: 30 })),
        },
        { lastUser: /^overloaded now$/, reply: () => Promise.reject(httpError(529, "Overloaded")) },
        {
          lastUser: /^slow answer$/,
          reply: () => new Promise((resolve) => setTimeout(() => resolve(say("late")), 3000)),
        },
        { lastUser: /^too long for you$/, reply: () => Promise.reject(contextTooLong(201_000, 200_000)) },
        { lastUser: /^filter this$/, reply: { content: "", filtered: true } },
        { test: (r) => r.model === "no-such-model", reply: (r) => Promise.reject(unknownModel(r.model)) },
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
  it.each(PROVIDER_NAMES)(
    "%s: retried after the wait the provider asks for, the call completes",
    async (provider) => {
      const { model } = await createChatModel({ env: llm.envFor(provider) });
      const started = performance.now();
      const reply = await model.invoke(`flaky ${provider}`);
      expect(reply.text).toBe(`recovered flaky ${provider}`);
      expect(llm.calls.filter((c) => JSON.stringify(c.body).includes(`flaky ${provider}`))).toHaveLength(2);
      // Ollama's client drops the response headers: its retry waits our own backoff (from 0.375 s).
      expect(performance.now() - started).toBeGreaterThan(provider === "ollama" ? 300 : 900);
    },
  );

  it.each(PROVIDER_NAMES)(
    "%s: a Retry-After longer than LLM_TIMEOUT_SECONDS ends the call at once, saying when to try again",
    async (provider) => {
      const { model } = await createChatModel({ env: { ...llm.envFor(provider), LLM_TIMEOUT_SECONDS: "5" } });
      const started = performance.now();
      const error = await model.invoke("busy for 30s").catch((e: unknown) => e);
      const elapsed = performance.now() - started;
      const message = String((error as Error).message);
      if (provider === "ollama") {
        // No Retry-After reaches ChatOllama: retried with backoff until the budget, then told to wait.
        expect(message).toMatch(/^Ollama \(LLM_PROVIDER=ollama\) is rate-limiting this agent \(HTTP 429\)/);
      } else {
        expect(elapsed).toBeLessThan(3000);
        expect(message).toMatch(
          /is rate-limiting this agent \(HTTP 429\) and asks to wait 30 s, longer than LLM_TIMEOUT_SECONDS allows: try again after \d\d:\d\d:\d\d UTC \(in 30 s\)\.$/,
        );
        expect(
          llm.calls.filter((c) => JSON.stringify(c.body).includes("busy for 30s")).length,
        ).toBeGreaterThan(0);
      }
      expect(message).toContain(`LLM_PROVIDER=${provider}`);
    },
  );

  it("overload (Anthropic's 529) is retried LLM_MAX_RETRIES times, then ends the call naming the setting", async () => {
    const { model } = await createChatModel({
      env: { ...llm.envFor("anthropic-claude"), LLM_MAX_RETRIES: "1" },
    });
    const before = llm.calls.length;
    await expect(model.invoke("overloaded now")).rejects.toThrow(
      /^Anthropic \(LLM_PROVIDER=anthropic-claude\) is overloaded \(HTTP 529\) after 1 retry \(LLM_MAX_RETRIES\): try again/,
    );
    expect(llm.calls.length - before).toBe(2);
  });

  it("a model slower than LLM_TIMEOUT_SECONDS ends the call with the setting to raise", async () => {
    const { model } = await createChatModel({
      env: { ...llm.envFor("aws-bedrock"), LLM_TIMEOUT_SECONDS: "1" },
    });
    const started = performance.now();
    await expect(model.invoke("slow answer")).rejects.toThrow(
      "AWS Bedrock (LLM_PROVIDER=aws-bedrock) did not answer within LLM_TIMEOUT_SECONDS=1: try again, or raise LLM_TIMEOUT_SECONDS for slow models.",
    );
    expect(performance.now() - started).toBeLessThan(2500);
  });
});

describe.each(PROVIDER_NAMES)(
  "LLM_PROVIDER=%s: a failure names the provider and the setting to change",
  (provider) => {
    const label = `(LLM_PROVIDER=${provider})`;
    const keyFor: Record<string, string> = {
      openai: "OPENAI_API_KEY",
      "azure-openai": "AZURE_OPENAI_API_KEY",
      "anthropic-claude": "ANTHROPIC_API_KEY",
      "aws-bedrock": "AWS_ACCESS_KEY_ID",
      "google-gemini": "GOOGLE_API_KEY",
    };

    it("an unknown model, a context that is too long, a filtered answer; a bad key", async () => {
      const { model } = await createChatModel({ env: llm.envFor(provider, "no-such-model") });
      await expect(model.invoke("hello")).rejects.toThrow(
        new RegExp(
          `${label.replace(/[()]/g, "\\$&")} has no model "no-such-model".*: set [A-Z_]+ to a model`,
        ),
      );
      const fine = (await createChatModel({ env: llm.envFor(provider) })).model;
      await expect(fine.invoke("too long for you")).rejects.toThrow(
        /This conversation is too long for .* \(HTTP 400\): start a new conversation, or set MAX_CONTEXT_TOKENS/,
      );
      if (provider !== "ollama") {
        // Ollama has no content filter to report.
        await expect(fine.invoke("filter this")).rejects.toThrow(
          /(withheld the answer|declined to answer).* \(\w+: \w+\)/,
        );
        const streamed = async () => {
          for await (const _ of await fine.stream("filter this")) {
            // drained
          }
        };
        await expect(streamed()).rejects.toThrow(/(withheld the answer|declined to answer)/);
        const key = keyFor[provider] as string;
        const wrong = await createChatModel({ env: { ...llm.envFor(provider), [key]: "AKIAWRONGKEY0000" } });
        const error = (await wrong.model.invoke("hello").catch((e: unknown) => e)) as Error;
        expect(error.message).toMatch(new RegExp(`refused the credentials \\(HTTP 40[013]\\): check ${key}`));
        expect(error.message).not.toContain("AKIAWRONGKEY0000");
      }
    });
  },
);
