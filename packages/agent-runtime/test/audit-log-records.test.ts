import { describe, expect, it } from "vitest";
import type { AuditEntry } from "../src/audit/entry.js";
import { auditAttributes, auditSummary } from "../src/audit/log-records.js";

const attempt: AuditEntry = {
  kind: "attempt",
  at: "2026-01-01T10:00:00.000Z",
  agent: "jira",
  principal: { subject: "u1", email: "ann@example.com" },
  tool: "create_issue",
  args: { project: "PLAT", token: "[redacted]", labels: ["a", "b"], fields: [{ id: 1 }] },
  resource: { project: "PLAT" },
  decision: "allow",
  policy: ["plat-changes"],
  confirmedBy: "u1",
  traceId: "0af7651916cd43dd8448eb211c80319c",
};

describe("audit lines as OpenTelemetry log records", () => {
  it("summarizes each kind of line in one sentence", () => {
    expect(auditSummary(attempt)).toBe(
      "attempt: ann@example.com runs jira/create_issue on project PLAT, confirmed by u1 (policy plat-changes)",
    );
    expect(auditSummary({ ...attempt, kind: "denial", decision: "deny", policy: [] })).toBe(
      "denied: ann@example.com may not call jira/create_issue on project PLAT",
    );
    expect(auditSummary({ ...attempt, kind: "denial", tool: "*", resource: undefined, policy: [] })).toBe(
      "denied: ann@example.com may not use the jira agent",
    );
    expect(
      auditSummary({ ...attempt, kind: "outcome", outcome: "failed", attempt: 3, error: "HTTP 500" }),
    ).toBe("failed: ann@example.com's jira/create_issue on project PLAT (attempt 3): HTTP 500");
  });

  it("flattens the line's fields under audit.", () => {
    expect(auditAttributes({ ...attempt, seq: 7, prev: "p6", keyId: "k1", hash: "l7" })).toEqual({
      "audit.kind": "attempt",
      "audit.at": "2026-01-01T10:00:00.000Z",
      "audit.agent": "jira",
      "audit.principal.subject": "u1",
      "audit.principal.email": "ann@example.com",
      "audit.tool": "create_issue",
      "audit.args.project": "PLAT",
      "audit.args.token": "[redacted]",
      "audit.args.labels": ["a", "b"],
      "audit.args.fields": '[{"id":1}]',
      "audit.resource.project": "PLAT",
      "audit.decision": "allow",
      "audit.policy": ["plat-changes"],
      "audit.confirmedBy": "u1",
      "audit.traceId": "0af7651916cd43dd8448eb211c80319c",
      "audit.seq": 7,
      // Its place in the chain: exported as written, an anchor outside the database.
      "audit.link": "l7",
      "audit.keyId": "k1",
    });
  });
});
