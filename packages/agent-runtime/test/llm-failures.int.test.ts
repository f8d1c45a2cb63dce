import { randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import { connectAgent } from "@switchboard/a2a-client";
import { createLogger } from "@switchboard/common";
import {
  type ChatCompletionRequest,
  contextTooLong,
  httpError,
  isSummaryRequest,
  type ProviderName,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
  unknownModel,
} from "@switchboard-testing/test-llm";
import { uniqueDbName } from "@switchboard-testing/test-mongo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningAgent } from "../src/serve.js";
import { serveNotesAgent } from "./notes-agent.js";

// What a user reads when the model provider fails, over a real A2A turn of the notes agent on each
// provider's own protocol (one scripted server speaks them all): the turn ends with a message that
// names the provider and what to change, never the key, and a context that is too long is summarized
// and tried once more.

const KEY = "sk-failures-test-key-5d71c0";
/** Past this many characters of conversation the scripted "model" says its context window is full. */
const WINDOW_CHARS = 6_000;
const NOTE = (n: number) => `remember note ${n}: ${"lorem ipsum ".repeat(340)}`;

const PROVIDERS: [ProviderName, string, RegExp][] = [
  ["openai", "OPENAI_API_KEY", /OpenAI \(LLM_PROVIDER=openai\)/],
  ["anthropic-claude", "ANTHROPIC_API_KEY", /Anthropic \(LLM_PROVIDER=anthropic-claude\)/],
  ["aws-bedrock", "AWS_ACCESS_KEY_ID", /AWS Bedrock \(LLM_PROVIDER=aws-bedrock\)/],
  ["google-gemini", "GOOGLE_API_KEY", /Google Gemini \(LLM_PROVIDER=google-gemini\)/],
];

const tooLong = (request: ChatCompletionRequest) =>
  !isSummaryRequest(request) && JSON.stringify(request.messages).length > WINDOW_CHARS;

describe("a turn that meets a provider failure ends with what to change", () => {
  const dbName = uniqueDbName("llm_failures");
  const logLines: string[] = [];
  const seen: string[] = [];
  let llm: ScriptedLlm;
  const agents = new Map<ProviderName, RunningAgent>();

  beforeAll(async () => {
    llm = await startScriptedLlm({
      apiKey: KEY,
      script: rules(
        [
          { test: isSummaryRequest, reply: say("The user shared long notes earlier.") },
          // Some providers quote the key they refused: it must never reach the user or the log.
          {
            lastUser: /^check my key$/,
            reply: () => Promise.reject(httpError(401, `Incorrect API key provided: ${KEY}.`)),
          },
          { lastUser: /^use the retired model$/, reply: (r) => Promise.reject(unknownModel(r.model)) },
          { lastUser: /^something forbidden$/, reply: { content: "", filtered: true } },
          {
            lastUser: /^busy$/,
            reply: () => Promise.reject(httpError(429, "Rate limit reached.", { retryAfterSeconds: 90 })),
          },
          { test: tooLong, reply: () => Promise.reject(contextTooLong(250_000, 200_000)) },
        ],
        say("Noted."),
      ),
    });
    const logger = createLogger({
      level: "debug",
      destination: new Writable({
        write(chunk, _encoding, done) {
          logLines.push(chunk.toString());
          done();
        },
      }),
    });
    for (const [provider] of PROVIDERS) {
      agents.set(
        provider,
        await serveNotesAgent({
          llm,
          dbName,
          logger,
          // MAX_CONTEXT_TOKENS (64k) is above the scripted window: only the provider's error summarizes.
          env: { ...llm.envFor(provider), LLM_TIMEOUT_SECONDS: "20", MIN_MESSAGES_TO_KEEP: "1" },
        }),
      );
    }
  }, 60_000);

  afterAll(async () => {
    await Promise.all([...agents.values()].map((agent) => agent.close()));
    await llm?.close();
  });

  const send = async (provider: ProviderName, text: string, contextId = randomUUID()) => {
    const agent = agents.get(provider);
    if (!agent) throw new Error(`no agent for ${provider}`);
    const result = await (await connectAgent(agent.url)).send({ text, contextId });
    seen.push(result.text);
    return result;
  };

  it.each(PROVIDERS)(
    "%s: bad key, unknown model, filtered answer, a wait past the budget",
    async (provider, keyVariable, who) => {
      const badKey = await send(provider, "check my key");
      expect(badKey.state).toBe("failed");
      expect(badKey.text).toMatch(who);
      expect(badKey.text).toContain(`refused the credentials (HTTP 401): check ${keyVariable}`);

      const model = await send(provider, "use the retired model");
      expect(model.state).toBe("failed");
      expect(model.text).toMatch(who);
      expect(model.text).toMatch(
        /has no model ".+" that these credentials may use \(HTTP 40[04]\): set [A-Z_]+ to a model/,
      );

      const filtered = await send(provider, "something forbidden");
      expect(filtered.state).toBe("failed");
      expect(filtered.text).toMatch(who);
      expect(filtered.text).toMatch(
        /(withheld the answer: its content filter stopped it|declined to answer) \((finish_reason: content_filter|stop_reason: refusal|finishReason: SAFETY|stopReason: guardrail_intervened)\): rephrase the request/,
      );

      const started = performance.now();
      const busy = await send(provider, "busy");
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(busy.state).toBe("failed");
      expect(busy.text).toMatch(who);
      expect(busy.text).toMatch(
        /is rate-limiting this agent \(HTTP 429\) and asks to wait 90 s, longer than LLM_TIMEOUT_SECONDS allows: try again after \d\d:\d\d:\d\d UTC \(in 90 s\)\.$/,
      );
    },
  );

  it.each(PROVIDERS)(
    "%s: a context too long is summarized and tried once more; past that, it says so",
    async (provider, _key, who) => {
      const contextId = randomUUID();
      expect((await send(provider, NOTE(1), contextId)).state).toBe("completed");
      const before = llm.requests.length;
      const second = await send(provider, NOTE(2), contextId);
      expect(second, second.text).toMatchObject({ state: "completed", text: "Noted." });
      const after = llm.requests.slice(before);
      // Refused, summarized, then answered from the summary and the newest note.
      expect(
        after.map((request) => (isSummaryRequest(request) ? "summary" : tooLong(request) ? "refused" : "ok")),
      ).toEqual(["refused", "summary", "ok"]);

      const alone = await send(provider, `${NOTE(3)} ${NOTE(4)}`);
      expect(alone.state).toBe("failed");
      expect(alone.text).toMatch(who);
      expect(alone.text).toMatch(
        /This conversation is still too long for .+ \(HTTP 400\), even with its older messages summarized: start a new conversation, or set MAX_CONTEXT_TOKENS \(now 64000\)/,
      );
    },
  );

  it("shows no key, stack trace or provider message to the user, and logs no key", () => {
    expect(seen.length).toBeGreaterThan(0);
    for (const text of seen) {
      expect(text).not.toContain(KEY);
      expect(text).not.toMatch(/\n\s+at |Troubleshooting URL|Incorrect API key/);
    }
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join("")).not.toContain(KEY);
    expect(logLines.join("")).not.toContain("test-bedrock-secret");
  });
});
