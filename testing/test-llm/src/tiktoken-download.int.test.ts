import { ChatOpenAI } from "@langchain/openai";
import { afterAll, beforeAll, expect, it } from "vitest";
import { guardOutboundConnections, type OutboundGuard } from "./outbound-guard.js";
import { say } from "./replies.js";
import { type ScriptedLlm, startScriptedLlm } from "./server.js";

// Documents the problem the README describes: ChatOpenAI with `streaming: true` counts tokens after
// every invoke, and the first count downloads the tokenizer from tiktoken.pages.dev. The guard blocks
// that connection; the blocked download is then retried with backoff for a minute or more, so this
// file only waits for the first attempt and leaves the call pending when the test worker exits.

let llm: ScriptedLlm;
let guard: OutboundGuard;
beforeAll(async () => {
  llm = await startScriptedLlm({ script: () => say("ok") });
  guard = guardOutboundConnections();
});
afterAll(() => llm.close());

it("ChatOpenAI({ streaming: true }).invoke reaches for tiktoken.pages.dev after the reply", async () => {
  const chat = new ChatOpenAI({
    model: "gpt-4o-mini",
    apiKey: "sk-test",
    configuration: { baseURL: llm.url },
    streaming: true,
  });
  const pending = chat.invoke("hello");
  pending.catch(() => undefined);
  await expect
    .poll(() => guard.disallowedHosts(), { timeout: 10_000, interval: 50 })
    .toContain("tiktoken.pages.dev");
  expect(llm.requests).toHaveLength(1);
  expect(llm.requests[0]?.stream).toBe(true);
});
