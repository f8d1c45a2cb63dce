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

  /** One tool call as LangChain reports it to the observer: start, then end. */
  const callTool = async (captureContent: boolean, input: string) => {
    const turn = trace.getTracer("test").startSpan("invoke_agent jira");
    const observer = new ModelCallObserver({
      agent: "jira",
      metrics: createMetrics(checkpointMetrics()),
      parent: trace.setSpan(context.active(), turn),
      captureContent,
    });
    observer.handleToolStart(
      { lc: 1, type: "not_implemented", id: [] },
      input,
      "run-1",
      undefined,
      [],
      {},
      "search_issues",
      "call-1",
    );
    observer.handleToolEnd("[]", "run-1");
    turn.end();
    await provider.forceFlush();
    return exporter.getFinishedSpans().find((span) => span.name === "execute_tool search_issues");
  };

  it("keeps a tool call's arguments off its span unless content capture is on, and masks secrets in them", async () => {
    const input = JSON.stringify({
      jql: "project = PLAT",
      token: "ghp_0123456789abcdefghijABCDEFGHIJ012345",
    });
    expect((await callTool(false, input))?.attributes["gen_ai.tool.call.arguments"]).toBeUndefined();
    exporter.reset();
    const captured = String((await callTool(true, input))?.attributes["gen_ai.tool.call.arguments"]);
    expect(captured).toContain("project = PLAT");
    expect(captured).not.toContain("ghp_0123456789abcdefghij");
  });
});
