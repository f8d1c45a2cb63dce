import { readFileSync } from "node:fs";
import { type AIMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { ChatOllama } from "@langchain/ollama";
import { ChatOpenAI } from "@langchain/openai";
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { replyFromToolResult } from "./replies.js";
import { rules } from "./rules.js";
import { type ScriptedLlm, startScriptedLlm } from "./server.js";

// What the real LangChain clients send, held to the providers' own published API descriptions
// (vendored in specs/ with their licences, trimmed to the operation used): OpenAI's OpenAPI document
// for POST /chat/completions, Ollama's for POST /api/chat. A field the provider does not describe, or
// one of the wrong type, fails here rather than at the provider.

const weather = {
  name: "get_weather",
  description: "The weather in a city",
  schema: z.object({ city: z.string().describe("City name"), unit: z.enum(["C", "F"]).optional() }),
};

/**
 * OpenAI's document still writes OpenAPI 3.0's `nullable: true` in places, some beside no `type`, which
 * ajv will not compile: read as 3.0 means it, "this schema, or null".
 */
function nullableAsAnyOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(nullableAsAnyOf);
  if (typeof value !== "object" || value === null) return value;
  const { nullable, ...rest } = value as Record<string, unknown>;
  const inner = Object.fromEntries(Object.entries(rest).map(([key, v]) => [key, nullableAsAnyOf(v)]));
  if (nullable === undefined || "type" in rest)
    return nullable === undefined ? inner : { ...inner, nullable };
  return nullable === true ? { anyOf: [inner, { type: "null" }] } : inner;
}

function operationSchema(file: string, schema: string) {
  const document = nullableAsAnyOf(
    JSON.parse(readFileSync(new URL(`../specs/${file}`, import.meta.url), "utf8")),
  ) as object;
  // OpenAPI 3.1 schemas are JSON Schema 2020-12; the documents' own extensions (x-…, discriminator)
  // are not validation keywords, and formats are not checked (the documents use ones ajv lacks).
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema(document, file);
  const validate = ajv.getSchema(`${file}#/components/schemas/${schema}`);
  if (!validate) throw new Error(`${file} has no ${schema}`);
  return (body: unknown): ErrorObject[] => (validate(body) ? [] : [...(validate.errors ?? [])]);
}

let llm: ScriptedLlm;
beforeAll(async () => {
  llm = await startScriptedLlm({
    script: rules(
      [
        {
          lastUser: /weather in (\w+) and (\w+)/,
          reply: (_request, { match }) => ({
            toolCalls: [
              { name: "get_weather", args: { city: match?.[1] } },
              { name: "get_weather", args: { city: match?.[2] } },
            ],
          }),
        },
        { afterTool: "get_weather", reply: replyFromToolResult() },
      ],
      (_request, { userText }) => ({ content: `You said: ${userText}` }),
    ),
  });
});
afterAll(() => llm.close());

/** A tool turn (whole, then streamed) and its answer from the tool results, with a system prompt. */
async function toolTurns(model: ChatOpenAI | ChatOllama) {
  const bound = model.bindTools([weather]);
  const ask = [new SystemMessage("Be brief."), new HumanMessage("weather in Oslo and Lima?")];
  const called = (await bound.invoke(ask)) as AIMessage;
  expect(called.tool_calls).toHaveLength(2);
  for await (const _chunk of await bound.stream(ask)) {
    // the streamed request is what is checked
  }
  const results = (called.tool_calls ?? []).map(
    (call) => new ToolMessage({ content: `${String(call.args.city)}: 12 C`, tool_call_id: call.id ?? "" }),
  );
  const answer = await bound.invoke([...ask, called, ...results]);
  expect(answer.text).toContain("Oslo");
}

describe("requests the LangChain clients send, against the providers' API descriptions", () => {
  it("OpenAI Chat Completions: ChatOpenAI's requests are CreateChatCompletionRequests", async () => {
    const from = llm.calls.length;
    await toolTurns(
      new ChatOpenAI({
        model: "gpt-4o-mini",
        apiKey: "sk-test",
        configuration: { baseURL: llm.url },
        maxRetries: 0,
      }),
    );
    const bodies = llm.calls.slice(from).map((call) => call.body);
    expect(bodies).toHaveLength(3);
    const problems = operationSchema("openai/openapi.chat-completions.json", "CreateChatCompletionRequest");
    for (const body of bodies) expect(problems(body)).toEqual([]);
    // The description holds: a request it refuses is refused (the check is not vacuous).
    expect(problems({ ...(bodies[0] as object), temperature: "warm" })).not.toEqual([]);
    expect(problems({ messages: [] })).not.toEqual([]);
  });

  it("Ollama /api/chat: ChatOllama's requests are ChatRequests", async () => {
    const from = llm.calls.length;
    await toolTurns(
      new ChatOllama({ model: "llama3.1", baseUrl: `http://127.0.0.1:${llm.port}`, maxRetries: 0 }),
    );
    const calls = llm.calls.slice(from);
    expect(calls.every((call) => call.dialect === "ollama")).toBe(true);
    expect(calls).toHaveLength(3);
    const problems = operationSchema("ollama/openapi.chat.json", "ChatRequest");
    for (const call of calls) expect(problems(call.body)).toEqual([]);
    expect(problems({ ...(calls[0]?.body as object), stream: "yes" })).not.toEqual([]);
    expect(problems({ model: "llama3.1" })).not.toEqual([]);
  });
});
