import { trace } from "@opentelemetry/api";
import { redactSecrets, SECRET_MASK } from "@switchboard/common";
import type { Principal } from "../authz/principal.js";
import type { ToolResource } from "../authz/request.js";
import type { AuditLog } from "./audit-log.js";
import type { AuditEntry } from "./entry.js";

/** What every line about one call shares. */
export interface AuditedCall {
  principal: Principal;
  tool: string;
  args: Record<string, unknown>;
  resource?: ToolResource;
  /** The policies that decided (empty when no policy is configured). */
  policy: string[];
  contextId?: string;
  /** Whose change an approver decided (or was refused deciding): the turn's caller. */
  requester?: Principal;
}

/** Argument names whose values are credentials, whatever tool takes them. */
const SECRET_ARG = /pass(word)?|secret|token|api[-_]?key|credential|private[-_]?key|authorization/i;

/**
 * Writes an agent's audit lines: who, what, on what, decided by which policy, confirmed by whom,
 * and how it ended, with secrets redacted from the arguments and the error, and the turn's trace id.
 */
export class AuditRecorder {
  constructor(
    private readonly log: AuditLog,
    private readonly agent: string,
  ) {}

  async denial(call: AuditedCall): Promise<number> {
    return (await this.log.append(this.entry("denial", call, { decision: "deny" }))).seq;
  }

  /** Before a change runs: a crash after this leaves the attempt on record. */
  async attempt(call: AuditedCall, confirmedBy: string | undefined): Promise<number> {
    const line = await this.log.append(
      this.entry("attempt", call, { decision: "allow", ...(confirmedBy ? { confirmedBy } : {}) }),
    );
    return line.seq;
  }

  async outcome(
    call: AuditedCall,
    outcome: "done" | "failed" | "declined",
    details: { attempt?: number; error?: string } = {},
  ): Promise<number> {
    const line = await this.log.append(
      this.entry("outcome", call, {
        decision: "allow",
        outcome,
        ...(details.attempt !== undefined ? { attempt: details.attempt } : {}),
        ...(details.error ? { error: redactSecrets(details.error).slice(0, 500) } : {}),
      }),
    );
    return line.seq;
  }

  private entry(
    kind: AuditEntry["kind"],
    call: AuditedCall,
    rest: Pick<AuditEntry, "decision"> & Partial<AuditEntry>,
  ): AuditEntry {
    const traceId = trace.getActiveSpan()?.spanContext().traceId;
    const { principal, requester } = call;
    return {
      kind,
      at: new Date().toISOString(),
      agent: this.agent,
      principal: auditPrincipal(principal),
      tool: call.tool,
      args: redactedArgs(call.args),
      ...(call.resource ? { resource: call.resource } : {}),
      policy: call.policy,
      ...(call.contextId ? { contextId: call.contextId } : {}),
      ...(requester ? { requester: auditPrincipal(requester) } : {}),
      ...(traceId && traceId !== "00000000000000000000000000000000" ? { traceId } : {}),
      ...rest,
    };
  }
}

function auditPrincipal(principal: Principal): AuditEntry["principal"] {
  return {
    subject: principal.subject,
    ...(principal.name ? { name: principal.name } : {}),
    ...(principal.email ? { email: principal.email } : {}),
  };
}

/** A copy of the arguments with credential-named fields masked and token-shaped strings redacted. */
export function redactedArgs(args: Record<string, unknown>): Record<string, unknown> {
  const walk = (value: unknown, key?: string): unknown => {
    if (key && SECRET_ARG.test(key) && value !== undefined && value !== null) return SECRET_MASK;
    if (typeof value === "string") return redactSecrets(value);
    if (Array.isArray(value)) return value.map((item) => walk(item));
    if (value && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([field, item]) => [field, walk(item, field)]));
    }
    return value;
  };
  return walk(args) as Record<string, unknown>;
}
