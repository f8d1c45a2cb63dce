import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpError } from "./errors.js";
import { callTool, echo, say } from "./replies.js";
import { rules } from "./rules.js";
import { type ScriptedLlm, startScriptedLlm } from "./server.js";

// The wire format as OpenAI sends it; the real-client behaviour is covered in chat-openai.int.test.ts.
interface WireToolCall {
  id: string;
  type: string;
  function: { name: string; arguments: string };
}
interface Completion {
  id: string;
  choices: { message: { content: string | null; tool_calls?: WireToolCall[] }; finish_reason: string }[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}
interface ErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}
interface ModelList {
  object: string;
  data: { id: string }[];
}

async function json<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

const auth = { authorization: "Bearer sk-test", "content-type": "application/json" };

function post(llm: ScriptedLlm, body: unknown, headers: Record<string, string> = auth) {
  return fetch(`${llm.url}/chat/completions`, { method: "POST", headers, body: JSON.stringify(body) });
}

async function sseEvents(response: Response): Promise<string[]> {
  const text = await response.text();
  expect(text.endsWith("data: [DONE]\n\n")).toBe(true);
  return text
    .split("\n\n")
    .filter((block) => block !== "")
    .map((block) => {
      expect(block.startsWith("data: ")).toBe(true);
      return block.slice("data: ".length);
    });
}

describe("scripted LLM wire format", () => {
  let llm: ScriptedLlm;
  beforeAll(async () => {
    llm = await startScriptedLlm({
      script: rules(
        [
          {
            lastUser: /weather in (\w+)/i,
            reply: (_req, { match }) => callTool("get_weather", { city: match?.[1] }),
          },
          {
            lastUser: "rate limit",
            reply: () => Promise.reject(httpError(429, "Rate limit reached for requests")),
          },
          { lastUser: "broken script", reply: () => Promise.reject(new Error("boom")) },
        ],
        say("Hello there, friend."),
      ),
      models: ["gpt-4o-mini", "gpt-4.1"],
    });
  });
  afterAll(() => llm.close());

  it("serves a base URL ending in /v1 on 127.0.0.1", () => {
    expect(llm.url).toBe(`http://127.0.0.1:${llm.port}/v1`);
  });

  it("answers a non-streaming request with a chat.completion carrying usage", async () => {
    const response = await post(llm, { model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    const body = await json<Completion>(response);
    expect(body).toMatchObject({
      object: "chat.completion",
      model: "gpt-4o-mini",
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: "Hello there, friend.", refusal: null },
          finish_reason: "stop",
        },
      ],
    });
    expect(body.id).toMatch(/^chatcmpl-/);
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);
    expect(body.usage.completion_tokens).toBeGreaterThan(0);
  });

  it("returns tool calls with generated ids and JSON arguments", async () => {
    const response = await post(llm, {
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "What is the weather in Paris?" }],
    });
    const body = await json<Completion>(response);
    const choice = body.choices[0];
    expect(choice?.finish_reason).toBe("tool_calls");
    expect(choice?.message.content).toBeNull();
    const calls = choice?.message.tool_calls ?? [];
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      type: "function",
      function: { name: "get_weather" },
    });
    expect(calls[0]?.id).toMatch(/^call_\w{24}$/);
    expect(JSON.parse(calls[0]?.function.arguments ?? "")).toEqual({ city: "Paris" });
  });

  it("streams content chunks, a finish chunk, a usage chunk when asked, then [DONE]", async () => {
    const response = await post(llm, {
      model: "gpt-4o-mini",
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: "hi" }],
    });
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = await sseEvents(response);
    expect(events.at(-1)).toBe("[DONE]");
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e));
    for (const chunk of chunks)
      expect(chunk).toMatchObject({ object: "chat.completion.chunk", model: "gpt-4o-mini" });
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks[0].choices[0].delta).toEqual({ role: "assistant", content: "", refusal: null });
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? "").join("");
    expect(text).toBe("Hello there, friend.");
    expect(chunks.filter((c) => c.choices[0]?.delta.content).length).toBeGreaterThan(1);
    const finish = chunks.at(-2);
    expect(finish.choices[0]).toEqual({ index: 0, delta: {}, logprobs: null, finish_reason: "stop" });
    expect(finish.usage).toBeNull();
    const usage = chunks.at(-1);
    expect(usage.choices).toEqual([]);
    expect(usage.usage.total_tokens).toBeGreaterThan(0);
  });

  it("streams tool calls as index/id/name headers followed by argument fragments", async () => {
    const response = await post(llm, {
      model: "gpt-4o-mini",
      stream: true,
      messages: [{ role: "user", content: "weather in Lisbon please" }],
    });
    const chunks = (await sseEvents(response)).slice(0, -1).map((e) => JSON.parse(e));
    expect(chunks.every((c) => !("usage" in c))).toBe(true);
    const deltas = chunks.flatMap((c) => c.choices[0].delta.tool_calls ?? []);
    expect(deltas[0]).toMatchObject({
      index: 0,
      type: "function",
      function: { name: "get_weather", arguments: "" },
    });
    expect(deltas[0].id).toMatch(/^call_/);
    expect(
      deltas.slice(1).every((d: { id?: string; index: number }) => d.id === undefined && d.index === 0),
    ).toBe(true);
    expect(
      JSON.parse(deltas.map((d: { function: { arguments: string } }) => d.function.arguments).join("")),
    ).toEqual({
      city: "Lisbon",
    });
    expect(chunks.at(-1).choices[0].finish_reason).toBe("tool_calls");
  });

  it("rejects requests without a bearer key in OpenAI's error shape", async () => {
    const response = await post(
      llm,
      { model: "m", messages: [{ role: "user", content: "hi" }] },
      {
        "content-type": "application/json",
      },
    );
    expect(response.status).toBe(401);
    const body = await json<ErrorBody>(response);
    expect(body.error.message).toMatch(/didn't provide an API key/);
    expect(body.error).toHaveProperty("type", "invalid_request_error");
  });

  it("turns a thrown httpError into that status, and a script bug into a 400 that names it", async () => {
    const limited = await post(llm, { model: "m", messages: [{ role: "user", content: "rate limit me" }] });
    expect(limited.status).toBe(429);
    expect(await json<ErrorBody>(limited)).toEqual({
      error: {
        message: "Rate limit reached for requests",
        type: "requests",
        param: null,
        code: "rate_limit_exceeded",
      },
    });
    const broken = await post(llm, { model: "m", messages: [{ role: "user", content: "broken script" }] });
    expect(broken.status).toBe(400);
    expect((await json<ErrorBody>(broken)).error.message).toMatch(/script failed: boom/);
  });

  it("answers malformed bodies and unknown routes with 400 and 404", async () => {
    const bad = await fetch(`${llm.url}/chat/completions`, { method: "POST", headers: auth, body: "{nope" });
    expect(bad.status).toBe(400);
    expect((await json<ErrorBody>(bad)).error.message).toMatch(/parse the JSON/);
    const noMessages = await post(llm, { model: "m", messages: [] });
    expect(noMessages.status).toBe(400);
    const responses = await fetch(`${llm.url}/responses`, { method: "POST", headers: auth, body: "{}" });
    expect(responses.status).toBe(404);
    expect((await json<ErrorBody>(responses)).error.message).toMatch(/useResponsesApi/);
  });

  it("lists its models", async () => {
    const list = await json<ModelList>(await fetch(`${llm.url}/models`, { headers: auth }));
    expect(list.object).toBe("list");
    expect(list.data.map((m) => m.id)).toEqual(["gpt-4o-mini", "gpt-4.1"]);
    const one = await fetch(`${llm.url}/models/gpt-4.1`, { headers: auth });
    expect(await one.json()).toMatchObject({ id: "gpt-4.1", object: "model" });
    expect((await fetch(`${llm.url}/models/nope`, { headers: auth })).status).toBe(404);
  });

  it("records every chat request body for assertions", async () => {
    const before = llm.requests.length;
    await post(llm, {
      model: "gpt-4.1",
      messages: [{ role: "user", content: "remember me" }],
      temperature: 0,
    });
    expect(llm.requests.length).toBe(before + 1);
    expect(llm.requests.at(-1)).toMatchObject({ model: "gpt-4.1", temperature: 0 });
  });
});

describe("scripted LLM options", () => {
  it("answers without keeping requests when record is false (a benchmark's thousands of turns)", async () => {
    const llm = await startScriptedLlm({ script: rules([], say("kept nowhere")), record: false });
    try {
      const response = await post(llm, { model: "m", messages: [{ role: "user", content: "x" }] });
      expect((await json<Completion>(response)).choices[0]?.message.content).toBe("kept nowhere");
      expect(llm.requests).toEqual([]);
      expect(llm.calls).toEqual([]);
    } finally {
      await llm.close();
    }
  });

  it("accepts only the configured key when apiKey is set", async () => {
    const llm = await startScriptedLlm({ script: echo(), apiKey: "sk-right" });
    try {
      const wrong = await post(llm, { model: "m", messages: [{ role: "user", content: "x" }] });
      expect(wrong.status).toBe(401);
      expect((await json<ErrorBody>(wrong)).error).toMatchObject({ code: "invalid_api_key" });
      const right = await post(
        llm,
        { model: "m", messages: [{ role: "user", content: "x" }] },
        {
          ...auth,
          authorization: "Bearer sk-right",
        },
      );
      expect((await json<Completion>(right)).choices[0]?.message.content).toBe("echo: x");
    } finally {
      await llm.close();
    }
  });

  it("delays each response by latencyMs", async () => {
    const llm = await startScriptedLlm({ script: echo(), latencyMs: 150 });
    try {
      const started = performance.now();
      await (await post(llm, { model: "m", messages: [{ role: "user", content: "x" }] })).json();
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    } finally {
      await llm.close();
    }
  });

  it("listens on the port it is given and frees it on close", async () => {
    const first = await startScriptedLlm({ script: echo() });
    const { port } = first;
    await first.close();
    const second = await startScriptedLlm({ script: echo(), port });
    expect(second.port).toBe(port);
    await second.close();
  });
});
