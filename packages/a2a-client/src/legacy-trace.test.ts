import { AsyncLocalStorage } from "node:async_hooks";
import {
  type Context,
  type ContextManager,
  context,
  ROOT_CONTEXT,
  TraceFlags,
  trace,
} from "@opentelemetry/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildRequest } from "./client.js";

/** What a service's OpenTelemetry SDK registers: the active context follows async calls. */
class TestContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.storage.run(ctx, () => fn.call(thisArg, ...args));
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.storage.disable();
    return this;
  }
}

const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
const span = trace.wrapSpanContext({ traceId, spanId: "00f067aa0ba902b7", traceFlags: TraceFlags.SAMPLED });

/** Builds the request inside an active span, as the supervisor does during its turn. */
function inSpan<T>(fn: () => T): T {
  return context.with(trace.setSpan(context.active(), span), fn);
}

describe("buildRequest and the caller's trace", () => {
  beforeAll(() => {
    context.setGlobalContextManager(new TestContextManager());
  });
  afterAll(() => {
    context.disable();
  });

  it("sends an A2A 0.3 agent the active trace as metadata.trace_id, 32 hex digits (CAIPE's agents join it)", () => {
    const request = inSpan(() => buildRequest({ text: "hi", contextId: "ctx-abc" }, "0.3"));
    expect(request.message?.metadata?.trace_id).toBe(traceId);
    expect(request.message?.metadata?.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(request.message?.metadata?.context_id).toBe(request.message?.contextId);
  });

  it("keeps a trace_id the caller set", () => {
    const request = inSpan(() =>
      buildRequest({ text: "hi", contextId: "ctx-abc", metadata: { trace_id: "mine" } }, "0.3"),
    );
    expect(request.message?.metadata?.trace_id).toBe("mine");
  });

  it("sends no trace_id outside a span, nor to a 1.0 agent (it gets traceparent)", () => {
    expect(buildRequest({ text: "hi", contextId: "ctx-abc" }, "0.3").message?.metadata).not.toHaveProperty(
      "trace_id",
    );
    const modern = inSpan(() => buildRequest({ text: "hi", contextId: "ctx-abc" }, "1.0"));
    expect(modern.message?.metadata).toEqual({ context_id: "ctx-abc" });
  });
});
