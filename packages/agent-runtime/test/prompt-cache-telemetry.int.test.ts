import { randomUUID } from "node:crypto";
import { connectAgent } from "@switchboard/a2a-client";
import { type OtlpReceiver, startOtlpReceiver } from "@switchboard-testing/otlp-receiver";
import type { AgentProcess } from "@switchboard-testing/test-agents";
import { type ScriptedLlm, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { uniqueDbName } from "@switchboard-testing/test-mongo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNotesProcess } from "./notes-agent.js";

// Cached input tokens, where an operator looks for them: the notes agent on Anthropic's protocol with
// prompt caching on (ANTHROPIC_ENABLE_PROMPT_CACHE's default), two turns of one conversation long enough
// to cache (Claude caches prefixes of 1,024 tokens and more), then its /metrics and its exported spans.

/** About 1,500 tokens (characters / 4): the first turn's prefix is worth caching. */
const LONG_NOTE = `keep this runbook: ${"restart the ingest workers, then check the queue depth. ".repeat(110)}`;

describe("prompt caching in the token metrics and traces", () => {
  let llm: ScriptedLlm;
  let receiver: OtlpReceiver;
  let agent: AgentProcess;

  beforeAll(async () => {
    [llm, receiver] = await Promise.all([
      startScriptedLlm({ script: () => say("Noted.") }),
      startOtlpReceiver(),
    ]);
    agent = await startNotesProcess({
      llm,
      dbName: uniqueDbName("prompt_cache_telemetry"),
      env: { ...llm.envFor("anthropic-claude"), ...receiver.env },
    });
    const connection = await connectAgent(agent.url);
    const contextId = randomUUID();
    for (const text of [LONG_NOTE, "and one more thing"]) {
      expect((await connection.send({ text, contextId })).state).toBe("completed");
    }
    await receiver.waitFor((spans) => spans.filter((span) => span.name.startsWith("chat ")).length >= 2);
  }, 60_000);

  afterAll(async () => {
    await agent?.kill("SIGTERM");
    await Promise.all([llm?.close(), receiver?.close()]);
  });

  it("counts cache writes and reads on /metrics, per agent and model", async () => {
    const metrics = await (await fetch(`${agent.url}/metrics`)).text();
    const count = (type: string) =>
      Number(
        new RegExp(
          `^switchboard_model_cache_tokens_total\\{agent="notes",model="claude-sonnet-4-5",type="${type}"\\} (\\d+)$`,
          "m",
        ).exec(metrics)?.[1] ?? 0,
      );
    expect(count("creation")).toBeGreaterThan(1000);
    expect(count("read")).toBeGreaterThan(1000);
  });

  it("puts gen_ai.usage.cache_read and cache_creation input tokens on the model call spans", () => {
    const chats = receiver.spans.filter((span) => span.name === "chat claude-sonnet-4-5");
    const first = chats[0]?.attributes ?? {};
    const second = chats.at(-1)?.attributes ?? {};
    expect(first["gen_ai.usage.cache_creation.input_tokens"]).toBeGreaterThan(1000);
    expect(second["gen_ai.usage.cache_read.input_tokens"]).toBeGreaterThan(1000);
    // Cached tokens are part of the input tokens, as the conventions define them.
    expect(Number(second["gen_ai.usage.input_tokens"])).toBeGreaterThanOrEqual(
      Number(second["gen_ai.usage.cache_read.input_tokens"]),
    );
  });
});
