import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { AuditEntry } from "../../src/audit/entry.js";
import { chainProblems, testAuditKey } from "../audit-lines.js";
import { storeBackends } from "./backends.js";

// The contracts of the two stores the bundle holds for the agent's policies: the audit log (append
// only, chained, read by subject) and users' linked tokens (sealed, each user's own), each run
// against the memory and the MongoDB one.

const github = { vendor: "github", title: "GitHub", hint: "a personal access token" };
const line = (subject: string, tool: string): AuditEntry => ({
  kind: "denial",
  at: new Date().toISOString(),
  agent: "audit-alpha",
  principal: { subject },
  tool,
  args: {},
  decision: "deny",
  policy: ["test"],
});

describe.each(storeBackends("audit-and-tokens"))("the $name audit log and linked tokens", (backend) => {
  it("appends chained lines in order, reads them back by subject and newest last, each agent's apart", async () => {
    const { auditLog } = await backend.open("audit-alpha", {}, { audit: { key: testAuditKey } });
    const { auditLog: neighbour } = await backend.open("audit-beta", {}, { audit: { key: testAuditKey } });
    const stored = [];
    for (const [subject, tool] of [
      ["ann", "create_issue"],
      ["ben", "delete_repo"],
      ["ann", "close_issue"],
    ] as const)
      stored.push(await auditLog.append(line(subject, tool)));
    expect(stored.map((entry) => entry.seq)).toEqual([1, 2, 3]);
    expect(stored[1]?.prev).toBe(stored[0]?.hash);
    expect((await auditLog.read({ subject: "ann" })).map((entry) => entry.tool)).toEqual([
      "create_issue",
      "close_issue",
    ]);
    expect((await auditLog.read({ limit: 2 })).map((entry) => entry.seq)).toEqual([2, 3]);
    const all = [];
    for await (const entry of auditLog.all()) all.push(entry);
    expect(chainProblems(all)).toEqual([]);
    expect(await neighbour.read({})).toEqual([]);
  });

  it("keeps each user's linked token sealed and their own, unlinks it, and each agent's apart", async () => {
    const key = randomBytes(32);
    const { linkedTokens } = await backend.open(
      "tokens-alpha",
      {},
      { audit: {}, linking: { vendor: github, key } },
    );
    const { linkedTokens: neighbour } = await backend.open(
      "tokens-beta",
      {},
      { audit: {}, linking: { vendor: github, key } },
    );
    if (!linkedTokens || !neighbour) throw new Error("linking was asked for");
    await linkedTokens.link("ann", "ghp_ann_token");
    expect(JSON.stringify(await linkedTokens.list("ann"))).not.toContain("ghp_ann_token");
    expect(await linkedTokens.tokenFor("ann")).toBe("ghp_ann_token");
    expect(await linkedTokens.tokenFor("ben")).toBeUndefined();
    expect(await neighbour.tokenFor("ann")).toBeUndefined();
    expect(await linkedTokens.unlink("ann")).toBe(true);
    expect(await linkedTokens.unlink("ann")).toBe(false);
    expect(await linkedTokens.tokenFor("ann")).toBeUndefined();
  });
});
