import type { User } from "@a2a-js/sdk/server";
import type { Request, Response } from "express";
import { callerOf } from "../auth/bearer.js";
import type { Access } from "../authz/access.js";
import type { Principal } from "../authz/principal.js";
import { type AuditFilter, type AuditLog, DEFAULT_AUDIT_LIMIT } from "./audit-log.js";
import type { ChainedEntry } from "./entry.js";

/** The most lines one GET /audit answers. */
export const MAX_AUDIT_LIMIT = 1000;

/** GET /audit's filters; `agent` is the supervisor's (which agent's lines, across the fleet). */
export interface AuditQuery extends AuditFilter {
  agent?: string;
}

/** What a caller may read of an agent's trail: its lines, or why not (the answer is then a 403). */
export type AuditReading =
  | {
      allowed: true;
      agent: string;
      lines: ChainedEntry[];
      /** Set when no policy is configured and the caller is signed in: only their own lines. */
      onlySubject?: string;
    }
  | { allowed: false; agent: string; error: string; action: "audit"; resource: string };

/**
 * Reading an agent's audit trail, for those the policy allows: Cedar's
 * `Switchboard::Action::"audit"` on `Switchboard::Agent::"<agent>"`, decided by the agent's own
 * policies. With no policy configured, the local principal (AUTH_MODE=none) reads every line and a
 * signed-in caller (AUTH_MODE=jwt) only their own: the subject filter is forced to theirs. A refusal
 * is itself recorded as a denial.
 */
export class AuditTrail {
  constructor(
    readonly agent: string,
    private readonly log: AuditLog,
    private readonly access: Access,
  ) {}

  /** The caller's principal, from their verified token (the local principal when anonymous). */
  principal(user: User | undefined): Principal {
    return this.access.principal(user);
  }

  async read(user: User | undefined, filter: AuditFilter): Promise<AuditReading> {
    const principal = this.principal(user);
    const resource = `Switchboard::Agent::${JSON.stringify(this.agent)}`;
    const policies = this.access.policies;
    if (policies) {
      const decision = policies.decide({ principal, action: "audit", agent: this.agent });
      if (!decision.allowed) {
        await this.access.audit?.denial({
          principal,
          tool: "audit",
          args: filterArgs(filter),
          policy: decision.policies,
        });
        const who = principal.authenticated
          ? (principal.email ?? principal.name ?? principal.subject)
          : "An anonymous caller";
        const why = decision.policies.length
          ? `forbidden by policy ${decision.policies.join(", ")}`
          : "no policy permits it";
        return {
          allowed: false,
          agent: this.agent,
          action: "audit",
          resource,
          error: `Not allowed: ${who} may not read the ${this.agent} agent's audit trail (action Switchboard::Action::"audit" on ${resource}: ${why}).`,
        };
      }
      return { allowed: true, agent: this.agent, lines: await this.log.read(filter) };
    }
    if (!principal.authenticated) {
      return { allowed: true, agent: this.agent, lines: await this.log.read(filter) };
    }
    const lines = await this.log.read({ ...filter, subject: principal.subject });
    return { allowed: true, agent: this.agent, lines, onlySubject: principal.subject };
  }

  /** GET /audit's filters from a query string, or what is wrong with them. */
  parse(query: Request["query"]): { query: AuditQuery } | { error: string } {
    return parseAuditQuery(query);
  }

  /** The filters as a query string, to pass on to another agent's GET /audit. */
  searchParams(query: AuditQuery): URLSearchParams {
    return auditSearchParams(query);
  }

  /** GET /audit: `{ agent, lines }` newest last; 400 on a bad filter, 403 naming the action refused. */
  async serve(req: Request, res: Response): Promise<void> {
    const parsed = parseAuditQuery(req.query);
    if ("error" in parsed) {
      res.status(400).json({ error: parsed.error });
      return;
    }
    const reading = await this.read(await callerOf(req), parsed.query);
    if (!reading.allowed) {
      const { allowed: _allowed, ...refusal } = reading;
      res.status(403).json(refusal);
      return;
    }
    res.json({
      agent: reading.agent,
      ...(reading.onlySubject ? { onlySubject: reading.onlySubject } : {}),
      lines: reading.lines,
    });
  }
}

function filterArgs(filter: AuditFilter): Record<string, unknown> {
  return {
    ...(filter.subject ? { subject: filter.subject } : {}),
    ...(filter.since ? { since: filter.since.toISOString() } : {}),
    ...(filter.until ? { until: filter.until.toISOString() } : {}),
    ...(filter.limit ? { limit: filter.limit } : {}),
  };
}

/** `?subject=&since=&until=&limit=&agent=`: ISO times, limit 1…1000 (default 200). */
export function parseAuditQuery(query: Request["query"]): { query: AuditQuery } | { error: string } {
  const text = (name: string): string | undefined => {
    const value = query[name];
    const first = Array.isArray(value) ? value[0] : value;
    return typeof first === "string" && first.trim() !== "" ? first.trim() : undefined;
  };
  const result: AuditQuery = {};
  const subject = text("subject");
  if (subject) result.subject = subject;
  const agent = text("agent");
  if (agent) result.agent = agent;
  for (const name of ["since", "until"] as const) {
    const value = text(name);
    if (value === undefined) continue;
    const time = new Date(value);
    if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(time.getTime())) {
      return { error: `Invalid ${name}: give an ISO 8601 time, e.g. 2026-01-31T09:00:00Z.` };
    }
    result[name] = time;
  }
  const limit = text("limit");
  if (limit !== undefined) {
    const count = Number(limit);
    if (!Number.isInteger(count) || count < 1 || count > MAX_AUDIT_LIMIT) {
      return { error: `Invalid limit: give a whole number from 1 to ${MAX_AUDIT_LIMIT}.` };
    }
    result.limit = count;
  } else {
    result.limit = DEFAULT_AUDIT_LIMIT;
  }
  return { query: result };
}

export function auditSearchParams(query: AuditQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.subject) params.set("subject", query.subject);
  if (query.since) params.set("since", query.since.toISOString());
  if (query.until) params.set("until", query.until.toISOString());
  if (query.limit) params.set("limit", String(query.limit));
  return params;
}
