import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { MongoDBInstrumentation } from "@opentelemetry/instrumentation-mongodb";
import { UndiciInstrumentation } from "@opentelemetry/instrumentation-undici";
import { NodeSDK } from "@opentelemetry/sdk-node";
import { requireInstalled } from "../installed.js";
import type { LangfuseExport } from "./tracing-settings.js";

/** Paths that are polled, not used: no trace for each probe and scrape. */
const UNTRACED_PATHS = new Set(["/health", "/ready", "/metrics"]);

/**
 * Where new spans' ids come from (OpenTelemetry's IdGenerator), for a service that names its own
 * traces: the trigger receiver's run is a trace whose id is the run's.
 */
export interface IdGenerator {
  generateTraceId(): string;
  generateSpanId(): string;
}

export interface Tracing {
  /** Exports what is still buffered, then stops. */
  shutdown(): Promise<void>;
}

/**
 * Starts the OpenTelemetry SDK (loaded only when tracing is on; see tracing-settings.ts). Exporter,
 * protocol, headers, sampler and batching come from the standard OTEL_* variables, read by the SDK.
 * Metrics stay Prometheus's (/metrics) and logs pino's: the SDK exports traces, and the audit
 * trail's lines as OTLP log records (same endpoint and protocol, /v1/logs, or
 * OTEL_EXPORTER_OTLP_LOGS_ENDPOINT; batched per OTEL_BLRP_*), nothing else logs through it.
 */
export function startTracing(
  serviceName: string,
  langfuse?: LangfuseExport,
  idGenerator?: IdGenerator,
): Tracing {
  const sdk = new NodeSDK({
    serviceName,
    ...(idGenerator ? { idGenerator } : {}),
    metricReaders: [],
    // Langfuse (CAIPE's settings) takes traces only: its endpoint and key pair, no log records.
    ...(langfuse
      ? {
          traceExporter: new OTLPTraceExporter({
            url: langfuse.url,
            headers: { Authorization: langfuse.authorization },
          }),
          logRecordProcessors: [],
        }
      : {}),
    // No processors given: the SDK builds the OTLP log exporter from the same OTEL_* variables as the
    // trace exporter (endpoint, protocol, headers; OTEL_LOGS_EXPORTER=none turns records off).
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.has(request.url?.split("?")[0] ?? ""),
        // Outgoing calls go through fetch (undici), traced below: no second span per call.
        disableOutgoingRequestInstrumentation: true,
      }),
      new UndiciInstrumentation(),
      // Commands are recorded without their values (enhancedDatabaseReporting stays off).
      new MongoDBInstrumentation(),
    ],
  });
  sdk.start();
  patchLoadedModules();
  return { shutdown: () => sdk.shutdown() };
}

/**
 * The agent's modules (node:http, the MongoDB driver) were loaded before the SDK started: the
 * agent's entry imports the runtime statically, so no loader hook registered now (the documented
 * ESM way, `module.register` of import-in-the-middle) could see them, and an `--import` preload
 * would have to be added to every agent's start command and image. Both are CommonJS underneath:
 * requiring them again after start lets the instrumentations' require hook patch them in place (the
 * server's and the connections' prototypes, so objects made later are traced). fetch needs nothing:
 * undici reports through diagnostics_channel. No ESM hook is registered: nothing instrumented here
 * is ESM, and it would wrap every module loaded later (the LLM provider packages) for no span.
 */
function patchLoadedModules(): void {
  requireInstalled("node:http");
  const mongodb = requireInstalled.resolve("mongodb");
  for (const file of ["lib/cmap/connection.js", "lib/cmap/connect.js", "lib/sessions.js"]) {
    requireInstalled(mongodb.replace(/lib[/\\]index\.js$/, file));
  }
}
