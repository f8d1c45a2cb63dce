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
  const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
  const deepObj = (n: number): unknown => { let o: unknown = "x"; for (let i = 0; i < n; i++) o = { a: o }; return o; };
  const cases: Array<[string, string, string, Record<string, string>?]> = [
    ["charset latin1", "/", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: {} }), { "content-type": "application/json; charset=latin1" }],
    ["rest charset latin1", "/rest/message:send", "{}", { "content-type": "application/json; charset=latin1" }],
    ["gzip garbage", "/", "not gzip", { "content-encoding": "gzip" }],
    ["encoding foo", "/", "{}", { "content-encoding": "foo" }],
    ["rest encoding foo", "/rest/message:send", "{}", { "content-encoding": "foo" }],
    ["text/plain", "/", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: {} }), { "content-type": "text/plain" }],
    ["rest text/plain", "/rest/message:send", "{}", { "content-type": "text/plain" }],
    ["version 2.0", "/", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: {} }), { "A2A-Version": "2.0" }],
    ["rest version 2.0", "/rest/message:send", "{}", { "A2A-Version": "2.0" }],
    ["deep array 20000", "/", deep(20000)],
    ["deep params 5000", "/", `{"jsonrpc":"2.0","id":1,"method":"message/send","params":${deep(5000)}}`],
    ["deep metadata 150 v03", "/", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: { message: { kind: "message", role: "user", messageId: "md", contextId: "deep03", parts: [{ kind: "text", text: "hi" }], metadata: deepObj(150) } } })],
    ["deep metadata 3000 v1", "/", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: { role: "ROLE_USER", messageId: "md", contextId: "deep1", parts: [{ text: "hi" }], metadata: deepObj(3000) } } }), { "A2A-Version": "1.0" }],
    ["deep data part v1", "/", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: { role: "ROLE_USER", messageId: "md2", contextId: "deep2", parts: [{ data: deepObj(3000) }] } } }), { "A2A-Version": "1.0" }],
    ["batch", "/", "[]"],
    ["batch2", "/", JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "message/send" }])],
    ["null", "/", "null"],
    ["number", "/", "5"],
    ["string", "/", "\"x\""],
    ["empty", "/", ""],
    ["id object", "/", JSON.stringify({ jsonrpc: "2.0", id: { a: 1 }, method: "message/send", params: {} })],
    ["tasks/get", "/", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id: "nope" } })],
    ["tasks/cancel", "/", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tasks/cancel", params: { id: "nope" } })],
    ["stream invalid", "/", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/stream", params: { message: { kind: "message" } } })],
    ["ListTasks", "/", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ListTasks", params: { pageSize: 100000 } }), { "A2A-Version": "1.0" }],
    ["ListTasks token", "/", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ListTasks", params: { pageToken: "!!!", statusTimestampAfter: { $gt: 1 } } }), { "A2A-Version": "1.0" }],
    ["GetTask obj id", "/", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: { $ne: 1 } } }), { "A2A-Version": "1.0" }],
    ["GetTask hist", "/", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "x", historyLength: -5 } }), { "A2A-Version": "1.0" }],
    ["rest POST unknown", "/rest/foo", "{}"],
    ["rest tenant", "/rest/t1/message:send", "{}"],
    ["POST health", "/health", "{}"],
    ["push config", "/", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tasks/pushNotificationConfig/set", params: { taskId: "x", pushNotificationConfig: { url: "http://x" } } })],
    ["ext card", "/", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "agent/getAuthenticatedExtendedCard" })],
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
  for (const p of ["/rest/tasks/nope", "/rest/tasks", "/rest/tasks?pageSize=abc", "/%", "/rest/tasks/%E0%A4%A", "/rest/v1/tasks/x", "/rest/v1/card", "/.well-known/agent.json", "/ready", "/rest/extendedAgentCard", "/rest/tasks/x:subscribe", "/nope", "/rest/tasks?status=banana&pageToken=%%"]) {
    const r = await fetch(agent.url + p);
    console.log(`### GET ${p}: ${r.status} ${r.headers.get("content-type")} ${(await r.text()).slice(0, 200)}`);
  }
  await agent.close();
  await llm.close();
}, 60000);
