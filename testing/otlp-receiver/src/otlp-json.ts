/**
 * The parts of OTLP's JSON encoding of `ExportTraceServiceRequest` (opentelemetry-proto,
 * collector/trace/v1) that tests read. In OTLP/JSON, trace and span ids are hex strings and 64-bit
 * integers may arrive as strings.
 */
export interface ExportTraceServiceRequest {
  resourceSpans?: ResourceSpans[];
}

interface ResourceSpans {
  resource?: { attributes?: KeyValue[] };
  scopeSpans?: ScopeSpans[];
}

interface ScopeSpans {
  scope?: { name?: string };
  spans?: OtlpSpan[];
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: number;
  startTimeUnixNano?: string | number;
  endTimeUnixNano?: string | number;
  attributes?: KeyValue[];
  status?: { code?: number };
}

interface KeyValue {
  key: string;
  value?: AnyValue;
}

interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
  kvlistValue?: { values?: KeyValue[] };
  bytesValue?: string;
}

export type AttributeValue = string | number | boolean | AttributeValue[] | { [key: string]: AttributeValue };

/** One received span, flattened with its resource's service name. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Undefined for a root span. */
  parentSpanId?: string;
  name: string;
  /** SpanKind as OTLP numbers it: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  service: string;
  scope: string;
  attributes: Record<string, AttributeValue>;
  /** 0 unset, 1 ok, 2 error. */
  statusCode: number;
}

export function flattenSpans(request: ExportTraceServiceRequest): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of request.resourceSpans ?? []) {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    const service = String(resource["service.name"] ?? "");
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      for (const span of scopeSpans.spans ?? []) {
        spans.push({
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId || undefined,
          name: span.name,
          kind: span.kind ?? 0,
          service,
          scope: scopeSpans.scope?.name ?? "",
          attributes: attributesOf(span.attributes),
          statusCode: span.status?.code ?? 0,
        });
      }
    }
  }
  return spans;
}

/** OTLP/JSON's `ExportLogsServiceRequest` (collector/logs/v1), the parts tests read. */
export interface ExportLogsServiceRequest {
  resourceLogs?: Array<{
    resource?: { attributes?: KeyValue[] };
    scopeLogs?: Array<{
      scope?: { name?: string };
      logRecords?: Array<{
        severityNumber?: number;
        severityText?: string;
        body?: AnyValue;
        attributes?: KeyValue[];
        traceId?: string;
        spanId?: string;
      }>;
    }>;
  }>;
}

/** One received log record, flattened with its resource's service name. */
export interface ReceivedLogRecord {
  service: string;
  scope: string;
  severityNumber: number;
  severityText: string;
  body: AttributeValue;
  attributes: Record<string, AttributeValue>;
  /** Empty when the record was emitted outside a trace. */
  traceId: string;
}

export function flattenLogRecords(request: ExportLogsServiceRequest): ReceivedLogRecord[] {
  const records: ReceivedLogRecord[] = [];
  for (const resourceLogs of request.resourceLogs ?? []) {
    const service = String(attributesOf(resourceLogs.resource?.attributes)["service.name"] ?? "");
    for (const scopeLogs of resourceLogs.scopeLogs ?? []) {
      for (const record of scopeLogs.logRecords ?? []) {
        records.push({
          service,
          scope: scopeLogs.scope?.name ?? "",
          severityNumber: record.severityNumber ?? 0,
          severityText: record.severityText ?? "",
          body: decodeValue(record.body),
          attributes: attributesOf(record.attributes),
          traceId: record.traceId ?? "",
        });
      }
    }
  }
  return records;
}

function attributesOf(list: KeyValue[] | undefined): Record<string, AttributeValue> {
  const attributes: Record<string, AttributeValue> = {};
  for (const { key, value } of list ?? []) attributes[key] = decodeValue(value);
  return attributes;
}

function decodeValue(value: AnyValue | undefined): AttributeValue {
  if (!value) return "";
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(decodeValue);
  if (value.kvlistValue) return attributesOf(value.kvlistValue.values);
  return value.bytesValue ?? "";
}
