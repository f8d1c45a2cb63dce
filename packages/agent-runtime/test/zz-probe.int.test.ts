import { say } from "@switchboard/test-llm/replies";
import { startScriptedLlm } from "@switchboard/test-llm/server";
import { testMongoUri, uniqueDbName } from "@switchboard/test-mongo/inject";
import { createLogger } from "@switchboard/utils/logger";
import { it } from "vitest";
import { serveAgent } from "../src/serve.js";
import { notesAgent } from "./notes-agent.js";

it("probe", async () => {
  const llm = await startScriptedLlm({ script: () => say("ok") });
  const agent = await serveAgent(notesAgent([]), {
    env: {
      PORT: "0",
      HOST: "127.0.0.1",
      AGENT_NAME: "notes",
      MONGODB_URI: testMongoUri(),
      LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: uniqueDbName("probe"),
      LLM_PROVIDER: "openai",
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: llm.url,
      OPENAI_MODEL_NAME: "gpt-4o-mini",
      MAX_REQUEST_BYTES: String(64 * 1024),
    },
    logger: createLogger({ level: "silent" }),
  });
  const msg = (contextId: unknown, extra: Record<string, unknown> = {}) => ({
    kind: "message",
    role: "user",
    messageId: "m1",
    contextId,
    parts: [{ kind: "text", text: "hi" }],
    ...extra,
  });
  const cases: Array<[string, string, string, Record<string, string>?]> = [
    ["malformed", "/", "{oops"],
    [
      "jsonrpc1.0",
      "/",
      JSON.stringify({ jsonrpc: "1.0", id: 1, method: "message/send", params: { message: msg("c1") } }),
    ],
    [
      "jsonrpc1.0 v1",
      "/",
      JSON.stringify({ jsonrpc: "1.0", id: 1, method: "SendMessage", params: {} }),
      { "A2A-Version": "1.0" },
    ],
    ["no method", "/", JSON.stringify({ jsonrpc: "2.0", id: 1, params: { message: msg("c1") } })],
    ["no method v1", "/", JSON.stringify({ jsonrpc: "2.0", id: 1, params: {} }), { "A2A-Version": "1.0" }],
    ["unknown", "/", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "foo/bar", params: {} })],
    [
      "unknown v1",
      "/",
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "FooBar", params: {} }),
      { "A2A-Version": "1.0" },
    ],
    [
      "params string",
      "/",
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: "hello" }),
    ],
    [
      "params string v1",
      "/",
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: "hello" }),
      { "A2A-Version": "1.0" },
    ],
    [
      "parts not array",
      "/",
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "message/send",
        params: { message: msg("c2", { parts: "hi" }) },
      }),
    ],
    [
      "parts not array v1",
      "/",
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "SendMessage",
        params: { message: { role: "ROLE_USER", messageId: "m", contextId: "c2v1", parts: "hi" } },
      }),
      { "A2A-Version": "1.0" },
    ],
    [
      "role number",
      "/",
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "message/send",
        params: { message: msg("c3", { role: 7 }) },
      }),
    ],
    [
      "role number v1",
      "/",
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "SendMessage",
        params: { message: { role: 7, messageId: "m", contextId: "c3v1", parts: [{ text: "hi" }] } },
      }),
      { "A2A-Version": "1.0" },
    ],
    [
      "text number",
      "/",
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "message/send",
        params: { message: msg("c4", { parts: [{ kind: "text", text: 42 }] }) },
      }),
    ],
    [
      "text number v1",
      "/",
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "SendMessage",
        params: { message: { role: "ROLE_USER", messageId: "m", contextId: "c4v1", parts: [{ text: 42 }] } },
      }),
      { "A2A-Version": "1.0" },
    ],
    [
      "huge",
      "/",
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "message/send",
        params: { message: msg("c5", { parts: [{ kind: "text", text: "x".repeat(100000) }] }) },
      }),
    ],
    [
      "ctx $gt",
      "/",
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "message/send",
        params: { message: msg({ $gt: "" }) },
      }),
    ],
    [
      "ctx $where",
      "/",
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: { message: msg("$where") } }),
    ],
    [
      "ctx a.b",
      "/",
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: { message: msg("a.b") } }),
    ],
    [
      "ctx unicode",
      "/",
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "message/send",
        params: { message: msg("héllo-世界-🚀") },
      }),
    ],
    [
      "ctx 10k",
      "/",
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "message/send",
        params: { message: msg("x".repeat(10000)) },
      }),
    ],
    [
      "ctx NUL",
      "/",
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: { message: msg("a\u0000b") } }),
    ],
    [
      "ctx number",
      "/",
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: { message: msg(5) } }),
    ],
    [
      "ok v03",
      "/",
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: { message: msg("ok03") } }),
    ],
    [
      "ok v1",
      "/",
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "SendMessage",
        params: {
          message: { role: "ROLE_USER", messageId: "m2", contextId: "ok1", parts: [{ text: "hi" }] },
        },
      }),
      { "A2A-Version": "1.0" },
    ],
    [
      "SendMessage no header",
      "/",
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "SendMessage",
        params: {
          message: { role: "ROLE_USER", messageId: "m2", contextId: "ok1", parts: [{ text: "hi" }] },
        },
      }),
    ],
    ["rest malformed", "/rest/message:send", "{oops"],
    ["rest empty", "/rest/message:send", "{}"],
    ["rest string", "/rest/message:send", '"hello"'],
    ["rest array", "/rest/message:send", "[1,2]"],
    [
      "rest parts string",
      "/rest/message:send",
      JSON.stringify({ message: { role: "ROLE_USER", messageId: "m", contextId: "r1", parts: "x" } }),
    ],
    [
      "rest ok",
      "/rest/message:send",
      JSON.stringify({
        message: { role: "ROLE_USER", messageId: "m", contextId: "r2", parts: [{ text: "hi" }] },
      }),
    ],
    ["rest v1 malformed", "/rest/v1/message:send", "{oops"],
    ["rest v1 empty", "/rest/v1/message:send", "{}"],
    [
      "rest v1 ok",
      "/rest/v1/message:send",
      JSON.stringify({
        request: { role: "ROLE_USER", messageId: "m", contextId: "r3", content: [{ text: "hi" }] },
      }),
    ],
    ["rest huge", "/rest/message:send", JSON.stringify({ pad: "x".repeat(100000) })],
    [
      "rest ctx obj",
      "/rest/message:send",
      JSON.stringify({
        message: { role: "ROLE_USER", messageId: "m", contextId: { $gt: "" }, parts: [{ text: "hi" }] },
      }),
    ],
  ];
  for (const [name, path, body, headers] of cases) {
    const r = await fetch(agent.url + path, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
    });
    const t = await r.text();
    console.log(`### ${name}: ${r.status} ${r.headers.get("content-type")} ${t.slice(0, 400)}`);
  }
  await agent.close();
  await llm.close();
}, 60000);
