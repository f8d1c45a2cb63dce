import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { Serialized } from "@langchain/core/load/serializable";
import type { BaseMessage } from "@langchain/core/messages";
import type { LLMResult } from "@langchain/core/outputs";
import { type Context, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { redactSecrets } from "@switchboard/common";
import type { RuntimeMetrics } from "./metrics.js";

/**
 * Asked for at each span, never kept from module load: this module (ESM) and the SDK (CommonJS) hold
 * separate copies of the API, and a tracer taken before the SDK registered would stay a no-op.
 */
function tracer() {
  return trace.getTracer("@switchboard/agent-runtime");
}

export interface ModelCallOptions {
  agent: string;
  /** The agent's registry the call counts and timings go to. */
  metrics: Pick<
    RuntimeMetrics,
    "modelCalls" | "modelCallDuration" | "modelTokens" | "modelCacheTokens" | "toolCalls"
  >;
  /** The turn's span context: model and tool spans become its children. Absent when tracing is off. */
  parent?: Context;
  /** Prompt and completion text on model spans (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT). */
  captureContent?: boolean;
}

interface Call {
  model: string;
  started: number;
  span?: Span;
}

/**
 * Observes one turn's model and tool calls through LangChain's callbacks: Prometheus metrics always,
 * and, when tracing is on, one span per call following the OpenTelemetry GenAI conventions (model,
 * provider, token counts; message text only when explicitly enabled). LangChain has no official
 * OpenTelemetry instrumentation, so these spans are made here.
 */
export class ModelCallObserver extends BaseCallbackHandler {
  readonly name = "switchboard-model-calls";
  private readonly calls = new Map<string, Call>();

  constructor(private readonly options: ModelCallOptions) {
    super();
  }

  override handleChatModelStart(
    _llm: Serialized,
    messages: BaseMessage[][],
    runId: string,
    _parentRunId?: string,
    extraParams?: Record<string, unknown>,
    _tags?: string[],
    metadata?: Record<string, unknown>,
  ): void {
    const params = extraParams?.invocation_params as Record<string, unknown> | undefined;
    const model = String(metadata?.ls_model_name ?? params?.model ?? params?.modelName ?? "unknown");
    const call: Call = { model, started: performance.now() };
    if (this.options.parent) {
      call.span = tracer().startSpan(
        `chat ${model}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            "gen_ai.operation.name": "chat",
            "gen_ai.provider.name": String(metadata?.ls_provider ?? "unknown"),
            "gen_ai.request.model": model,
            "gen_ai.agent.name": this.options.agent,
          },
        },
        this.options.parent,
      );
      if (this.options.captureContent) {
        call.span.setAttribute("gen_ai.input.messages", JSON.stringify(messages.flat().map(asMessage)));
      }
    }
    this.calls.set(runId, call);
  }

  override handleLLMEnd(output: LLMResult, runId: string): void {
    const call = this.take(runId);
    if (!call) return;
    const generation = output.generations[0]?.[0] as { message?: BaseMessage & Usage } | undefined;
    const usage = generation?.message?.usage_metadata;
    const labels = { agent: this.options.agent, model: call.model };
    this.options.metrics.modelCalls.inc({ ...labels, outcome: "ok" });
    this.options.metrics.modelCallDuration.observe(labels, (performance.now() - call.started) / 1000);
    if (usage?.input_tokens !== undefined)
      this.options.metrics.modelTokens.inc({ ...labels, type: "input" }, usage.input_tokens);
    if (usage?.output_tokens !== undefined)
      this.options.metrics.modelTokens.inc({ ...labels, type: "output" }, usage.output_tokens);
    // Prompt caching (Anthropic, Bedrock, OpenAI's automatic cache, Gemini): LangChain's input_token_details.
    const cacheRead = usage?.input_token_details?.cache_read;
    const cacheCreation = usage?.input_token_details?.cache_creation;
    if (cacheRead) this.options.metrics.modelCacheTokens.inc({ ...labels, type: "read" }, cacheRead);
    if (cacheCreation)
      this.options.metrics.modelCacheTokens.inc({ ...labels, type: "creation" }, cacheCreation);
    const span = call.span;
    if (!span) return;
    const responseModel = generation?.message?.response_metadata?.model_name;
    if (typeof responseModel === "string") span.setAttribute("gen_ai.response.model", responseModel);
    if (usage?.input_tokens !== undefined) span.setAttribute("gen_ai.usage.input_tokens", usage.input_tokens);
    if (usage?.output_tokens !== undefined)
      span.setAttribute("gen_ai.usage.output_tokens", usage.output_tokens);
    // The GenAI conventions' names for cached input (both are part of gen_ai.usage.input_tokens).
    if (cacheRead !== undefined) span.setAttribute("gen_ai.usage.cache_read.input_tokens", cacheRead);
    if (cacheCreation !== undefined)
      span.setAttribute("gen_ai.usage.cache_creation.input_tokens", cacheCreation);
    if (this.options.captureContent && generation?.message) {
      span.setAttribute("gen_ai.output.messages", JSON.stringify([asMessage(generation.message)]));
    }
    span.end();
  }

  override handleLLMError(error: Error, runId: string): void {
    const call = this.take(runId);
    if (!call) return;
    const labels = { agent: this.options.agent, model: call.model };
    this.options.metrics.modelCalls.inc({ ...labels, outcome: "error" });
    this.options.metrics.modelCallDuration.observe(labels, (performance.now() - call.started) / 1000);
    endWithError(call.span, error);
  }

  override handleToolStart(
    _tool: Serialized,
    input: string,
    runId: string,
    _parentRunId?: string,
    _tags?: string[],
    _metadata?: Record<string, unknown>,
    runName?: string,
    toolCallId?: string,
  ): void {
    const tool = runName ?? "tool";
    const call: Call = { model: tool, started: performance.now() };
    if (this.options.parent) {
      // Arguments stay out unless content capture is on (they carry what users said), as the
      // messages do; results always stay out. Evaluations read the arguments (tools/eval).
      call.span = tracer().startSpan(
        `execute_tool ${tool}`,
        {
          kind: SpanKind.INTERNAL,
          attributes: {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": tool,
            "gen_ai.agent.name": this.options.agent,
            ...(toolCallId ? { "gen_ai.tool.call.id": toolCallId } : {}),
            ...(this.options.captureContent ? { "gen_ai.tool.call.arguments": redactSecrets(input) } : {}),
          },
        },
        this.options.parent,
      );
    }
    this.calls.set(runId, call);
  }

  override handleToolEnd(_output: unknown, runId: string): void {
    const call = this.take(runId);
    if (!call) return;
    this.options.metrics.toolCalls.inc({ agent: this.options.agent, tool: call.model, outcome: "ok" });
    call.span?.end();
  }

  override handleToolError(error: Error, runId: string): void {
    const call = this.take(runId);
    if (!call) return;
    this.options.metrics.toolCalls.inc({ agent: this.options.agent, tool: call.model, outcome: "error" });
    endWithError(call.span, error);
  }

  private take(runId: string): Call | undefined {
    const call = this.calls.get(runId);
    this.calls.delete(runId);
    return call;
  }
}

interface Usage {
  usage_metadata?: {
    input_tokens?: number;
    output_tokens?: number;
    input_token_details?: { cache_read?: number; cache_creation?: number };
  };
  response_metadata?: Record<string, unknown>;
}

function endWithError(span: Span | undefined, error: Error): void {
  if (!span) return;
  // The error's class, not its message: messages can quote what was sent.
  span.setAttribute("error.type", error.name || "Error");
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

function asMessage(message: BaseMessage): { role: string; content: unknown } {
  return { role: message.getType(), content: message.content };
}
