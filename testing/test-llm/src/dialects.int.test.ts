import { BedrockRuntimeClient } from "@aws-sdk/client-bedrock-runtime";
import { ChatAnthropic } from "@langchain/anthropic";
import { ChatBedrockConverse } from "@langchain/aws";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import {
  type AIMessage,
  type AIMessageChunk,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from "@langchain/core/messages";
import { ChatGoogle } from "@langchain/google";
import { ChatOllama } from "@langchain/ollama";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpError } from "./errors.js";
import { rules } from "./rules.js";
import { type ScriptedLlm, startScriptedLlm } from "./server.js";
import { parallelWeatherRules, weatherTool } from "./weather-turn.js";

// Each provider's own LangChain class (and the provider SDK under it) against the one scripted engine,
// over the provider's protocol: Anthropic Messages (SSE), Bedrock Converse / ConverseStream (event-stream
// frames over cleartext HTTP/2), Gemini generateContent / streamGenerateContent, Ollama /api/chat (NDJSON).

const weather = weatherTool;

let llm: ScriptedLlm;

beforeAll(async () => {
  llm = await startScriptedLlm({
    script: rules(
      [
        ...parallelWeatherRules,
        {
          lastUser: /fail with (\d+)/,
          reply: (_request, { match }) => {
            throw httpError(Number(match?.[1]), "scripted failure", { retryAfterSeconds: 1 });
          },
        },
        { system: "pirate", reply: (_request, { userText }) => ({ content: `Arr, ${userText}` }) },
      ],
      (_request, { userText }) => ({ content: `You said: ${userText}` }),
    ),
  });
});
afterAll(() => llm.close());

const models: Record<string, () => BaseChatModel> = {
  anthropic: () =>
    new ChatAnthropic({
      model: "claude-sonnet-4-5",
      apiKey: "sk-ant-test",
      anthropicApiUrl: `http://127.0.0.1:${llm.port}`,
      maxRetries: 0,
    }),
  bedrock: () =>
    new ChatBedrockConverse({
      model: "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
      region: "us-east-1",
      client: new BedrockRuntimeClient({
        region: "us-east-1",
        endpoint: `http://127.0.0.1:${llm.port}`,
        credentials: { accessKeyId: "AKIATEST", secretAccessKey: "secret" },
        maxAttempts: 1,
      }),
    }),
  gemini: () =>
    new ChatGoogle({
      model: "gemini-2.5-flash",
      apiKey: "gemini-key",
      platformType: "gai",
      endpoint: `http://127.0.0.1:${llm.port}`,
      maxRetries: 0,
    }),
  ollama: () => new ChatOllama({ model: "llama3.1", baseUrl: `http://127.0.0.1:${llm.port}`, maxRetries: 0 }),
};

async function streamed(model: BaseChatModel, input: Parameters<BaseChatModel["stream"]>[0]) {
  let text = "";
  let chunks = 0;
  for await (const chunk of await model.stream(input)) {
    chunks += 1;
    text += chunk.text;
  }
  return { text, chunks };
}

describe.each(Object.keys(models))("%s dialect", (dialect) => {
  const model = () => (models[dialect] as () => BaseChatModel)();

  it("answers a text turn, with the system prompt, whole and streamed", async () => {
    const input = [new SystemMessage("Talk like a pirate."), new HumanMessage("hello there")];
    const whole = await model().invoke(input);
    expect(whole.text).toBe("Arr, hello there");
    expect(whole.usage_metadata?.input_tokens).toBeGreaterThan(0);
    const stream = await streamed(model(), input);
    expect(stream.text).toBe("Arr, hello there");
    expect(stream.chunks).toBeGreaterThan(1);
    expect(llm.calls.at(-1)).toMatchObject({ dialect, stream: true });
  });

  it("makes parallel tool calls, whole and streamed, and answers from their results", async () => {
    const tooled = model().bindTools?.([weather]);
    if (!tooled) throw new Error("bindTools missing");
    const prompt = new HumanMessage("what is the weather in Oslo and Lima?");
    const whole = (await tooled.invoke([prompt])) as AIMessage;
    expect(whole.tool_calls?.map((c) => c.args)).toEqual([{ city: "Oslo" }, { city: "Lima" }]);
    expect(llm.requests.at(-1)?.tools?.[0]?.function).toMatchObject({ name: "get_weather" });

    let merged: AIMessageChunk | undefined;
    for await (const chunk of await tooled.stream([prompt])) {
      merged = merged === undefined ? (chunk as AIMessageChunk) : merged.concat(chunk as AIMessageChunk);
    }
    expect(merged?.tool_calls?.map((c) => [c.name, c.args])).toEqual([
      ["get_weather", { city: "Oslo" }],
      ["get_weather", { city: "Lima" }],
    ]);

    const calls = whole.tool_calls ?? [];
    const answer = tooled.invoke([
      prompt,
      whole,
      ...calls.map(
        (call) =>
          new ToolMessage({
            content: `sunny in ${call.args.city}`,
            tool_call_id: call.id ?? "",
            name: call.name,
          }),
      ),
    ]);
    expect((await answer).text).toBe(
      "get_weather returned: sunny in Oslo\nget_weather returned: sunny in Lima",
    );
  });

  it("fails a request in the provider's own error shape", async () => {
    await expect(model().invoke("fail with 400")).rejects.toThrow(/scripted failure/);
  });
});

describe("wire details", () => {
  it("Bedrock: ConverseStream arrives over HTTP/2, SigV4-signed, as event-stream frames", async () => {
    await models.bedrock?.().invoke("hi");
    await streamed((models.bedrock as () => BaseChatModel)(), "hi");
    const bedrock = llm.calls.filter((c) => c.dialect === "bedrock").slice(-2);
    expect(bedrock.map((c) => [c.path, c.httpVersion])).toEqual([
      ["/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse", expect.any(String)],
      ["/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream", "2.0"],
    ]);
    expect(String(bedrock[1]?.headers.authorization)).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIATEST\//);
  });

  it("Gemini: streamGenerateContent without alt=sse is one JSON array sent in pieces", async () => {
    const response = await fetch(
      `http://127.0.0.1:${llm.port}/v1beta/models/gemini-2.5-flash:streamGenerateContent`,
      {
        method: "POST",
        headers: { "x-goog-api-key": "k", "content-type": "application/json" },
        body: JSON.stringify({
          contents: [{ role: "user", parts: [{ text: "one two three four five six" }] }],
        }),
      },
    );
    const chunks = (await response.json()) as { candidates: { content: { parts: { text: string }[] } }[] }[];
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.map((c) => c.candidates[0]?.content.parts[0]?.text).join("")).toBe(
      "You said: one two three four five six",
    );
  });

  it("each provider's documented rules refuse a tool name it would refuse", async () => {
    const bad = { ...weather, name: "jira/get issue" };
    for (const name of ["anthropic", "bedrock", "gemini"]) {
      const tooled = models[name]?.().bindTools?.([bad]);
      await expect(tooled?.invoke("hi"), name).rejects.toThrow(/name|pattern/i);
    }
  });

  it("rate limits and overload come back in each provider's shape", async () => {
    const base = `http://127.0.0.1:${llm.port}`;
    const anthropic = await fetch(`${base}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": "k", "anthropic-version": "2023-06-01", "content-type": "application/json" },
      body: JSON.stringify({
        model: "m",
        max_tokens: 10,
        messages: [{ role: "user", content: "fail with 529" }],
      }),
    });
    expect(anthropic.status).toBe(529);
    expect(await anthropic.json()).toEqual({
      type: "error",
      error: { type: "overloaded_error", message: "scripted failure" },
    });
    const bedrock = await models
      .bedrock?.()
      .invoke("fail with 429")
      .catch((e: unknown) => e);
    expect(bedrock).toMatchObject({ name: "ThrottlingException", $metadata: { httpStatusCode: 429 } });
    const gemini = await fetch(`${base}/v1beta/models/g:generateContent`, {
      method: "POST",
      headers: { "x-goog-api-key": "k", "content-type": "application/json" },
      body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "fail with 429" }] }] }),
    });
    expect(await gemini.json()).toMatchObject({ error: { code: 429, status: "RESOURCE_EXHAUSTED" } });
    const ollama = await fetch(`${base}/api/chat`, {
      method: "POST",
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "fail with 429" }] }),
    });
    expect([ollama.status, await ollama.json()]).toEqual([429, { error: "scripted failure" }]);
  });
});
