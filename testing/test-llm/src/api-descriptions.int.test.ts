import { readFileSync } from "node:fs";
import {
  BedrockRuntimeClient,
  ConverseRequest$,
  ConverseStreamRequest$,
} from "@aws-sdk/client-bedrock-runtime";
import { ChatBedrockConverse } from "@langchain/aws";
import { type AIMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { ChatOllama } from "@langchain/ollama";
import { ChatOpenAI } from "@langchain/openai";
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rules } from "./rules.js";
import { type ScriptedLlm, startScriptedLlm } from "./server.js";
import { parallelWeatherRules, weatherTool } from "./weather-turn.js";

// What the real LangChain clients send, held to the providers' own published API descriptions
// (vendored in specs/ with their licences, trimmed to the operation used): OpenAI's OpenAPI document
// for POST /chat/completions, Ollama's for POST /api/chat; and Bedrock Runtime's Smithy model as the
// AWS SDK ships it (the ConverseRequest$ schema arrays in @aws-sdk/client-bedrock-runtime: member names,
// nesting, unions, required members and simple types; the model's length and pattern constraints are not
// in them). A field the provider does not describe, or one of the wrong type, fails here rather than at
// the provider.

const weather = weatherTool;

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

// The SDK's static schemas (@smithy/core's schema serde): [3 structure | 4 union, namespace, name,
// traits, member names, member schemas, required count], [1 list, …, traits, member], [2 map, …, traits,
// key, value]; a member is a schema or [schema, traits] (traits bit 1: httpLabel, in the URL not the
// body); simple types are numbers (0 string, 1 number, 2 boolean, 15 document, 64|x list, 128|x map).
type Shape = unknown;
const resolve = (shape: Shape): Shape => (typeof shape === "function" ? (shape as () => Shape)() : shape);

function memberOf(member: Shape): { shape: Shape; traits: number } {
  return Array.isArray(member) && member.length === 2 && typeof member[1] === "number"
    ? { shape: member[0], traits: member[1] }
    : { shape: member, traits: 0 };
}

function simpleProblems(kind: number, value: unknown, at: string): string[] {
  if (kind & 64)
    return Array.isArray(value)
      ? value.flatMap((v, i) => simpleProblems(kind & 63, v, `${at}[${i}]`))
      : [`${at}: not a list`];
  if (kind & 128)
    return typeof value === "object" && value !== null
      ? Object.entries(value).flatMap(([k, v]) => simpleProblems(kind & 127, v, `${at}.${k}`))
      : [`${at}: not a map`];
  const expected: Record<number, string> = { 0: "string", 1: "number", 2: "boolean", 21: "string" };
  const type = expected[kind];
  return type === undefined || typeof value === type ? [] : [`${at}: not a ${type}`];
}

/** Where `value` departs from a Bedrock shape, as the JSON body of a request carries it. */
function shapeProblems(shape: Shape, value: unknown, at: string): string[] {
  const s = resolve(shape);
  if (typeof s === "number") return simpleProblems(s, value, at);
  if (!Array.isArray(s)) return [];
  const [kind] = s as [number];
  if (kind === 1) {
    if (!Array.isArray(value)) return [`${at}: not a list`];
    return value.flatMap((item, i) => shapeProblems(memberOf(s[4]).shape, item, `${at}[${i}]`));
  }
  if (kind === 2) {
    if (typeof value !== "object" || value === null) return [`${at}: not a map`];
    return Object.entries(value).flatMap(([k, v]) => shapeProblems(memberOf(s[5]).shape, v, `${at}.${k}`));
  }
  if (kind !== 3 && kind !== 4) return [];
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [`${at}: not a structure`];
  const names = s[4] as string[];
  const members = (s[5] as Shape[]).map(memberOf);
  const required = kind === 3 ? ((s[6] as number | undefined) ?? 0) : 0;
  const problems: string[] = [];
  const set = Object.keys(value);
  for (const key of set) {
    const index = names.indexOf(key);
    if (index < 0 || (members[index]?.traits ?? 0) & 1)
      problems.push(`${at}.${key}: not a member of ${String(s[2])}`);
    else
      problems.push(
        ...shapeProblems(members[index]?.shape, (value as Record<string, unknown>)[key], `${at}.${key}`),
      );
  }
  for (const [index, name] of names.slice(0, required).entries())
    if (!((members[index]?.traits ?? 0) & 1) && !set.includes(name))
      problems.push(`${at}.${name}: required by ${String(s[2])}`);
  if (kind === 4 && set.length !== 1)
    problems.push(`${at}: a ${String(s[2])} union sets exactly one member, not ${set.length}`);
  return problems;
}

let llm: ScriptedLlm;
beforeAll(async () => {
  llm = await startScriptedLlm({
    script: rules([...parallelWeatherRules], (_request, { userText }) => ({
      content: `You said: ${userText}`,
    })),
  });
});
afterAll(() => llm.close());

/** A tool turn (whole, then streamed) and its answer from the tool results, with a system prompt. */
async function toolTurns(model: ChatOpenAI | ChatOllama | ChatBedrockConverse) {
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

  it("Bedrock Converse and ConverseStream: ChatBedrockConverse's requests fit the SDK's Smithy shapes", async () => {
    const from = llm.calls.length;
    await toolTurns(
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
    );
    const calls = llm.calls.slice(from);
    expect(calls.map((call) => call.path.split("/").pop())).toEqual([
      "converse",
      "converse-stream",
      "converse",
    ]);
    for (const call of calls) {
      const shape = call.path.endsWith("/converse-stream") ? ConverseStreamRequest$ : ConverseRequest$;
      expect(shapeProblems(shape, call.body, "request")).toEqual([]);
    }
    const body = calls[0]?.body as Record<string, unknown>;
    expect(shapeProblems(ConverseRequest$, { ...body, temperature: 0.2 }, "request")).toEqual([
      "request.temperature: not a member of ConverseRequest",
    ]);
    expect(
      shapeProblems(ConverseRequest$, { messages: [{ role: "user", content: [{}] }] }, "request"),
    ).toEqual(["request.messages[0].content[0]: a ContentBlock union sets exactly one member, not 0"]);
  });
});
