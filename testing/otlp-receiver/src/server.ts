import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import {
  type ExportLogsServiceRequest,
  type ExportTraceServiceRequest,
  flattenLogRecords,
  flattenSpans,
  type ReceivedLogRecord,
  type ReceivedSpan,
} from "./otlp-json.js";

export interface OtlpReceiver {
  /** Base URL for OTEL_EXPORTER_OTLP_ENDPOINT (the exporters append /v1/traces and /v1/logs). */
  url: string;
  /** Environment that makes an agent export here: OTLP/HTTP with JSON, exported every 100 ms. */
  env: Record<string, string>;
  /** Every span received so far. */
  readonly spans: ReceivedSpan[];
  /** Every log record received so far (POST /v1/logs). */
  readonly logRecords: ReceivedLogRecord[];
  /** Waits until `done(records)` holds, else throws naming how many arrived. */
  waitForLogs(
    done: (records: ReceivedLogRecord[]) => boolean,
    timeoutMs?: number,
  ): Promise<ReceivedLogRecord[]>;
  /** Every request body received so far, verbatim (to search for what must never be exported). */
  readonly bodies: string[];
  /** Each export's path and Authorization header, in order (e.g. Langfuse's /api/public/otel/v1/traces). */
  readonly requests: Array<{ path: string; authorization?: string }>;
  /** Waits until `done(spans)` holds, else throws naming what arrived. */
  waitFor(done: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  /** Waits until no span has arrived for `quietMs`: every process has exported what it buffered. */
  settle(quietMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

/**
 * A real OTLP/HTTP trace and log endpoint (POST /v1/traces, POST /v1/logs, also below a base path such
 * as Langfuse's /api/public/otel) on loopback. It speaks the JSON encoding
 * (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`) and answers protobuf with 415 and why.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const logRecords: ReceivedLogRecord[] = [];
  const requests: Array<{ path: string; authorization?: string }> = [];
  const server = createServer(async (request, response) => {
    const path = request.url ?? "";
    const kind = path.endsWith("/v1/traces") ? "traces" : path.endsWith("/v1/logs") ? "logs" : undefined;
    if (request.method !== "POST" || !kind) {
      response.writeHead(404).end();
      return;
    }
    requests.push({
      path,
      ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
    });
    if (!request.headers["content-type"]?.startsWith("application/json")) {
      response
        .writeHead(415, { "content-type": "text/plain" })
        .end("This receiver reads OTLP/JSON only: set OTEL_EXPORTER_OTLP_PROTOCOL=http/json.");
      return;
    }
    const body = await readBody(request);
    bodies.push(body);
    try {
      if (kind === "logs") {
        logRecords.push(...flattenLogRecords(JSON.parse(body) as ExportLogsServiceRequest));
      } else {
        spans.push(...flattenSpans(JSON.parse(body) as ExportTraceServiceRequest));
      }
    } catch {
      response.writeHead(400).end();
      return;
    }
    response.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "100",
      OTEL_BLRP_SCHEDULE_DELAY: "100",
    },
    spans,
    logRecords,
    async waitForLogs(done, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!done(logRecords)) {
        if (Date.now() > deadline) {
          throw new Error(
            `the expected log records did not arrive within ${timeoutMs} ms; received ${logRecords.length}: ${logRecords.map((record) => String(record.body)).join(" | ") || "none"}`,
          );
        }
        await sleep(50);
      }
      return logRecords;
    },
    bodies,
    requests,
    async waitFor(done, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!done(spans)) {
        if (Date.now() > deadline) {
          const seen = spans.map((span) => `${span.service}: ${span.name}`).join(", ");
          throw new Error(
            `the expected spans did not arrive within ${timeoutMs} ms; received: ${seen || "none"}`,
          );
        }
        await sleep(50);
      }
      return spans;
    },
    async settle(quietMs = 500) {
      for (let count = -1; count !== spans.length; ) {
        count = spans.length;
        await sleep(quietMs);
      }
      return spans;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
