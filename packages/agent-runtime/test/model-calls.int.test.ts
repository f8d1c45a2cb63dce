import { HumanMessage } from "@langchain/core/messages";
import { context, trace } from "@opentelemetry/api";
import { tracing } from "@opentelemetry/sdk-node";
import { createChatModel } from "@switchboard/llm";
import { checkpointMetrics } from "@switchboard/utils";
import { type ScriptedLlm, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMetrics } from "../src/telemetry/metrics.js";
import { ModelCallObserver } from "../src/telemetry/model-calls.js";

describe("model call spans", () => {
  const exporter = new tracing.InMemorySpanExporter();
  const provider = new tracing.BasicTracerProvider({
    spanProcessors: [new tracing.SimpleSpanProcessor(exporter)],
  });
  let llm: ScriptedLlm;

  beforeAll(async () => {
    trace.setGlobalTracerProvider(provider);
    llm = await startScriptedLlm({ script: () => say("PLAT-1 is open.") });
  });
  beforeEach(() => exporter.reset());
  afterAll(async () => {
    await Promise.all([llm.close(), provider.shutdown()]);
    trace.disable();
  });

  /** One real model call (ChatOpenAI against the scripted server) under a turn span. */
  const callModel = async (captureContent: boolean) => {
    const { model } = await createChatModel({ env: llm.env });
    const turn = trace.getTracer("test").startSpan("invoke_agent jira");
    const parent = trace.setSpan(context.active(), turn);
    const observer = new ModelCallObserver({
      agent: "jira",
      metrics: createMetrics(checkpointMetrics()),
      parent,
      captureContent,
    });
    await model.invoke([new HumanMessage("is PLAT-1 open?")], { callbacks: [observer] });
    turn.end();
    await provider.forceFlush();
    const chat = exporter.getFinishedSpans().find((span) => span.name.startsWith("chat "));
    return { chat, turn };
  };

  it("records model and token counts under the turn, and no message text by default", async () => {
    const { chat, turn } = await callModel(false);
    expect(chat?.parentSpanContext?.spanId).toBe(turn.spanContext().spanId);
    expect(chat?.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": llm.env.OPENAI_MODEL_NAME,
      "gen_ai.agent.name": "jira",
      "gen_ai.usage.input_tokens": expect.any(Number),
      "gen_ai.usage.output_tokens": expect.any(Number),
    });
    expect(JSON.stringify(chat?.attributes)).not.toContain("PLAT-1");
  });

  it("adds prompt and completion text when OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT is on", async () => {
    const { chat } = await callModel(true);
    expect(String(chat?.attributes["gen_ai.input.messages"])).toContain("is PLAT-1 open?");
    expect(String(chat?.attributes["gen_ai.output.messages"])).toContain("PLAT-1 is open.");
  });
});
