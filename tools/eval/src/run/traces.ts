import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { TraceDestination } from "./trace-destination.js";

/** One span as the evaluation reads it, from OTLP/JSON. */
export interface EvalSpan {
  traceId: string;
  spanId: string;
  name: string;
  /** 1 internal, 2 server, 3 client. */
  kind: number;
  startNs: bigint;
  attributes: Record<string, string | number | boolean>;
}

/** Spans of the traces the evaluation started, collected as the fleet exports them. */
export interface TraceCollector {
  /** OTLP/HTTP base URL the fleet exports to (`OTEL_EXPORTER_OTLP_ENDPOINT`). */
  url: string;
  /** The settings that make an agent export here, with tool arguments (content capture) on. */
  env: Record<string, string>;
  /** Keep the spans of this trace id (others are dropped: the fleet may be serving other users). */
  watch(traceId: string): void;
  spans(traceId: string): EvalSpan[];
  /** Resolves when `done(spans)` holds for the trace, or with false after `timeoutMs`. */
  waitFor(traceId: string, done: (spans: EvalSpan[]) => boolean, timeoutMs: number): Promise<boolean>;
  forget(traceId: string): void;
  /** Why exports could not be passed on to the configuration's own trace backend (the first reason), if so. */
  passOnProblem(): string | undefined;
  /** Stops receiving, once every export has been passed on. */
  close(): Promise<void>;
}

/** A request body above this is refused: an export batch of one run is far smaller. */
const MAX_BODY = 32 * 1024 * 1024;

/**
 * An OTLP/HTTP JSON trace endpoint on loopback (or `host`), the one the evaluation reads routing,
 * tool calls with their arguments, model calls and tokens from. JSON only
 * (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`); protobuf gets 415 naming the setting. With `passOn`
 * (a started fleet's own trace backend), every export is sent on there unchanged, so the report's
 * trace links (`EVAL_TRACE_URL`) open the runs' traces.
 */
export async function startTraceCollector(
  options: { port?: number; host?: string; passOn?: TraceDestination } = {},
): Promise<TraceCollector> {
  const traces = new Map<string, EvalSpan[]>();
  const waiters = new Set<() => void>();
  const passing = new Set<Promise<void>>();
  let problem: string | undefined;
  const passOn = (body: string, to: TraceDestination) => {
    const sent = fetch(to.url, {
      method: "POST",
      headers: { ...to.headers, "content-type": "application/json" },
      body,
      signal: AbortSignal.timeout(10_000),
    }).then(
      async (answer) => {
        await answer.body?.cancel();
        if (!answer.ok) problem ??= `${where(to.url)} answered ${answer.status}`;
      },
      (error: unknown) => {
        // The reason alone (ECONNREFUSED, a timeout): never the URL as given, which may hold a key.
        const { message, cause } = error as Error & { cause?: Error & { code?: string } };
        const reason = (cause?.code ?? cause?.message ?? message).replaceAll(to.url, where(to.url));
        problem ??= `${where(to.url)}: ${reason}`;
      },
    );
    passing.add(sent);
    void sent.finally(() => passing.delete(sent));
  };
  const server: Server = createServer(async (request, response) => {
    if (request.method !== "POST" || !request.url?.endsWith("/v1/traces")) {
      // Logs and metrics are not read: accepted and dropped, so an exporter does not retry them.
      response
        .writeHead(request.method === "POST" ? 200 : 404, { "content-type": "application/json" })
        .end("{}");
      return;
    }
    if (!request.headers["content-type"]?.startsWith("application/json")) {
      response
        .writeHead(415)
        .end("The evaluation reads OTLP/JSON only: set OTEL_EXPORTER_OTLP_PROTOCOL=http/json.");
      return;
    }
    try {
      const body = await readBody(request);
      for (const span of readSpans(JSON.parse(body))) traces.get(span.traceId)?.push(span);
      if (options.passOn) passOn(body, options.passOn);
    } catch {
      response.writeHead(400).end();
      return;
    }
    response.writeHead(200, { "content-type": "application/json" }).end("{}");
    for (const wake of waiters) wake();
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve),
  );
  const url = `http://${options.host ?? "127.0.0.1"}:${(server.address() as AddressInfo).port}`;
  return {
    url,
    // The traces-only variables too, so a configuration's own (its .env's) cannot send them elsewhere.
    env: {
      OTEL_SDK_DISABLED: "false",
      OTEL_TRACES_EXPORTER: "otlp",
      OTEL_EXPORTER_OTLP_ENDPOINT: url,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${url}/v1/traces`,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json",
      OTEL_TRACES_SAMPLER: "parentbased_always_on",
      OTEL_BSP_SCHEDULE_DELAY: "100",
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true",
      OTEL_LOGS_EXPORTER: "none",
      OTEL_METRICS_EXPORTER: "none",
    },
    watch: (traceId) => {
      if (!traces.has(traceId)) traces.set(traceId, []);
    },
    spans: (traceId) => traces.get(traceId) ?? [],
    waitFor: (traceId, done, timeoutMs) =>
      new Promise<boolean>((resolve) => {
        const check = () => {
          if (!done(traces.get(traceId) ?? [])) return;
          finish(true);
        };
        const timer = setTimeout(() => finish(false), timeoutMs);
        const finish = (value: boolean) => {
          clearTimeout(timer);
          waiters.delete(check);
          resolve(value);
        };
        waiters.add(check);
        check();
      }),
    forget: (traceId) => {
      traces.delete(traceId);
    },
    passOnProblem: () => problem,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all(passing);
    },
  };
}

/** A URL as a message may show it: no credentials, no query. */
function where(url: string): string {
  const { origin, pathname } = new URL(url);
  return `${origin}${pathname}`;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error("too large");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

interface OtlpValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
}

/** OTLP/JSON's ExportTraceServiceRequest, the fields read here (ids are hex, 64-bit numbers may be strings). */
function readSpans(body: {
  resourceSpans?: Array<{
    scopeSpans?: Array<{
      spans?: Array<{
        traceId: string;
        spanId: string;
        name: string;
        kind?: number;
        startTimeUnixNano?: string | number;
        attributes?: Array<{ key: string; value?: OtlpValue }>;
      }>;
    }>;
  }>;
}): EvalSpan[] {
  return (body.resourceSpans ?? []).flatMap((resource) =>
    (resource.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        name: span.name,
        kind: span.kind ?? 0,
        startNs: BigInt(span.startTimeUnixNano ?? 0),
        attributes: Object.fromEntries(
          (span.attributes ?? []).map(({ key, value }) => [key, scalar(value)] as const),
        ),
      })),
    ),
  );
}

function scalar(value: OtlpValue | undefined): string | number | boolean {
  if (value?.stringValue !== undefined) return value.stringValue;
  if (value?.boolValue !== undefined) return value.boolValue;
  if (value?.intValue !== undefined) return Number(value.intValue);
  if (value?.doubleValue !== undefined) return value.doubleValue;
  return "";
}
