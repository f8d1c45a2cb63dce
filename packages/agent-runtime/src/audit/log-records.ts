import { type AnyValueMap, logs, SeverityNumber } from "@opentelemetry/api-logs";
import type { AuditFilter, AuditLog } from "./audit-log.js";
import { entryOf } from "./chain.js";
import type { AuditEntry, ChainedEntry } from "./entry.js";

/** The instrumentation scope audit records are emitted under. */
export const AUDIT_LOGGER = "switchboard.audit";

/**
 * An audit log whose every appended line is also an OpenTelemetry log record (severity INFO, body a
 * one-line summary, attributes the line's fields flattened under `audit.`), in the context of the
 * call that wrote it, so the record carries the turn's trace. The record is emitted only once the
 * line is stored. Without tracing no logger provider is registered and emitting does nothing; with
 * it the SDK exports the records as OTLP logs (telemetry/tracing.ts). Lines are redacted before
 * they are written (recorder.ts), so records are too. Each record carries the line's sequence number
 * and link (`audit.seq`, `audit.link`, `audit.keyId`): exported as written, the log backend holds an
 * anchor of the trail outside the database that `audit:verify --anchor` can compare with (anchor.ts).
 */
export class LogRecordingAuditLog implements AuditLog {
  constructor(private readonly inner: AuditLog) {}

  async append(entry: AuditEntry): Promise<ChainedEntry> {
    const line = await this.inner.append(entry);
    try {
      logs.getLogger(AUDIT_LOGGER).emit({
        severityNumber: SeverityNumber.INFO,
        severityText: "INFO",
        timestamp: new Date(entry.at),
        body: auditSummary(entry),
        attributes: auditAttributes(line),
      });
    } catch {
      // Telemetry never fails the audited call: the line is stored.
    }
    return line;
  }

  read(filter: AuditFilter): Promise<ChainedEntry[]> {
    return this.inner.read(filter);
  }

  all(): AsyncIterable<ChainedEntry> {
    return this.inner.all();
  }
}

/** One line a person reads: what happened, who did it, on what. */
export function auditSummary(entry: AuditEntry): string {
  const who = entry.principal.email ?? entry.principal.name ?? entry.principal.subject;
  const call = `${entry.agent}/${entry.tool}`;
  const on = entry.resource
    ? ` on ${Object.entries(entry.resource)
        .map(([kind, name]) => `${kind} ${name}`)
        .join(", ")}`
    : "";
  const policy = entry.policy.length ? ` (policy ${entry.policy.join(", ")})` : "";
  switch (entry.kind) {
    case "denial":
      return `denied: ${who} may not ${deniedWhat(entry, call)}${on}${policy}`;
    case "attempt":
      return `attempt: ${who} runs ${call}${on}${entry.confirmedBy ? `, confirmed by ${entry.confirmedBy}` : ""}${policy}`;
    case "outcome":
      return `${entry.outcome ?? "outcome"}: ${who}'s ${call}${on}${entry.attempt ? ` (attempt ${entry.attempt})` : ""}${entry.error ? `: ${entry.error}` : ""}`;
  }
}

function deniedWhat(entry: AuditEntry, call: string): string {
  if (entry.requester) {
    const whose = entry.requester.email ?? entry.requester.name ?? entry.requester.subject;
    return `approve or decline ${whose}'s ${entry.tool === "*" ? "change" : call}`;
  }
  if (entry.tool === "*") return `use the ${entry.agent} agent`;
  if (entry.tool === "audit") return `read the ${entry.agent} agent's audit trail`;
  return `call ${call}`;
}

/**
 * The line's fields flattened: `audit.principal.subject`, `audit.args.project`, `audit.policy`, …,
 * then its place in the chain: `audit.seq`, `audit.link` and, when keyed, `audit.keyId`.
 */
export function auditAttributes(line: ChainedEntry): AnyValueMap {
  const attributes: AnyValueMap = {};
  const walk = (value: unknown, key: string): void => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) {
      attributes[key] = value.every((item) => typeof item === "string")
        ? (value as string[])
        : JSON.stringify(value);
      return;
    }
    if (typeof value === "object") {
      for (const [field, item] of Object.entries(value)) walk(item, `${key}.${field}`);
      return;
    }
    attributes[key] =
      typeof value === "string" || typeof value === "number" || typeof value === "boolean"
        ? value
        : String(value);
  };
  walk(entryOf(line), "audit");
  attributes["audit.seq"] = line.seq;
  attributes["audit.link"] = line.hash;
  if (line.keyId) attributes["audit.keyId"] = line.keyId;
  return attributes;
}
