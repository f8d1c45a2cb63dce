import { describe, expect, it } from "vitest";
import { chained, verifyChain } from "../src/audit/chain.js";
import type { AuditEntry, ChainedEntry } from "../src/audit/entry.js";

function entry(tool: string, at = "2026-11-25T10:00:00.000Z"): AuditEntry {
  return {
    kind: "attempt",
    at,
    agent: "jira",
    principal: { subject: "alice" },
    tool,
    args: { project: "PLAT" },
    decision: "allow",
    policy: ["plat-changes"],
  };
}

function trail(count: number): ChainedEntry[] {
  const lines: ChainedEntry[] = [];
  for (let seq = 1; seq <= count; seq++)
    lines.push(chained(seq, lines.at(-1)?.hash ?? "", entry(`tool${seq}`)));
  return lines;
}

describe("the audit trail's hash chain", () => {
  it("verifies an untouched trail", () => {
    expect(verifyChain(trail(5), { retention: false })).toEqual([]);
  });

  it("reports a line edited in place", () => {
    const lines = trail(5);
    lines[2] = { ...(lines[2] as ChainedEntry), decision: "deny" };
    expect(verifyChain(lines, { retention: false })).toEqual([
      { seq: 3, problem: "changed", detail: "its content does not match its hash" },
    ]);
  });

  it("reports a line rewritten with a fresh hash: the next line no longer follows it", () => {
    const lines = trail(5);
    const forged = chained(3, (lines[1] as ChainedEntry).hash, { ...entry("tool3"), outcome: "done" });
    lines[2] = forged;
    expect(verifyChain(lines, { retention: false })).toEqual([
      { seq: 4, problem: "changed", detail: "the line before it (3) is not the one it was written after" },
    ]);
  });

  it("reports removed lines, in the middle and at the start unless retention removed them", () => {
    const lines = trail(6);
    expect(verifyChain([...lines.slice(0, 2), ...lines.slice(4)], { retention: false })).toEqual([
      { seq: 5, problem: "missing-before", detail: "2 line(s) before it were removed" },
    ]);
    expect(verifyChain(lines.slice(2), { retention: false })[0]).toMatchObject({
      seq: 3,
      problem: "missing-before",
    });
    expect(verifyChain(lines.slice(2), { retention: true })).toEqual([]);
  });

  it("hashes content, not key order", () => {
    const a = chained(1, "", entry("x"));
    const reordered = Object.fromEntries(Object.entries(entry("x")).reverse()) as unknown as AuditEntry;
    expect(chained(1, "", reordered).hash).toBe(a.hash);
  });
});
