import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Anchor } from "../src/audit/anchor.js";
import { chained } from "../src/audit/chain.js";
import type { AuditEntry, ChainedEntry } from "../src/audit/entry.js";
import { type AuditKey, readAuditKey } from "../src/audit/key.js";
import { type TrailCheck, verifyTrail } from "../src/audit/verify-trail.js";

const key = readAuditKey(randomBytes(32).toString("hex"), "AUDIT_HMAC_KEY");
const NOW = new Date("2026-11-28T12:00:00.000Z");
const DAY = 86_400_000;

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

/** `count` lines, line n written `count - n + 1` days before NOW; keyed from `keyedFrom`. */
function trail(count: number, keyedFrom = 1, lineKey: AuditKey = key): ChainedEntry[] {
  const lines: ChainedEntry[] = [];
  for (let seq = 1; seq <= count; seq++) {
    const at = new Date(NOW.getTime() - (count - seq + 1) * DAY).toISOString();
    lines.push(
      chained(seq, lines.at(-1)?.hash ?? "", entry(`tool${seq}`, at), seq >= keyedFrom ? lineKey : undefined),
    );
  }
  return lines;
}

const anchorsOf = (lines: ChainedEntry[]): Anchor[] =>
  lines.map((line) => ({ agent: line.agent, seq: line.seq, link: line.hash, time: line.at }));

function check(lines: ChainedEntry[], more: Partial<TrailCheck> = {}) {
  return verifyTrail({
    agent: "jira",
    exists: true,
    lines: lines.map((line) => ({ position: line.seq, line })),
    ttlIndexes: [],
    anchors: [],
    anchored: false,
    keys: new Map([[key.id, key]]),
    now: NOW,
    ...more,
  });
}
const kinds = (verdict: ReturnType<typeof verifyTrail>) => verdict.problems.map((problem) => problem.kind);

describe("the audit trail's keyed chain", () => {
  it("verifies an untouched, anchored trail", () => {
    const lines = trail(5);
    const verdict = check(lines, { anchors: anchorsOf(lines), anchored: true });
    expect(verdict.problems).toEqual([]);
    expect(verdict.notes).toEqual([]);
    expect(verdict.anchoredHead).toBe(5);
  });

  it("links each line with HMAC-SHA-256 under the key, naming the key on the line", () => {
    const [line] = trail(1);
    expect(line?.keyId).toBe(key.id);
    const other = readAuditKey(randomBytes(32).toString("base64"), "AUDIT_HMAC_KEY");
    expect(chained(1, "", entry("tool1", line?.at), other).hash).not.toBe(line?.hash);
  });

  it("reports a line edited in place", () => {
    const lines = trail(5);
    lines[2] = { ...(lines[2] as ChainedEntry), decision: "deny" };
    expect(check(lines).problems).toEqual([
      { kind: "line edited", seq: 3, detail: `line 3 does not match its HMAC under key ${key.id}` },
    ]);
  });

  it("reports a line edited and every later link recomputed without the key (with the wrong key, or unkeyed)", () => {
    const lines = trail(6);
    const wrong = readAuditKey(randomBytes(32).toString("hex"), "AUDIT_HMAC_KEY");
    for (const forger of [wrong, undefined]) {
      const forged = lines.slice(0, 2);
      for (const line of lines.slice(2)) {
        const edited = line.seq === 3 ? { ...line, decision: "deny" as const } : line;
        const { seq: _s, prev: _p, hash: _h, keyId: _k, ...content } = edited;
        forged.push(
          chained(line.seq, forged.at(-1)?.hash ?? "", content, forger && { ...forger, id: key.id }),
        );
      }
      expect(kinds(check(forged))).toEqual(["chain forged"]);
      expect(check(forged).problems[0]?.detail).toContain("lines 3–6 fail their links");
    }
  });

  it("accepts an unkeyed start (written before a key was set), says so, and refuses unkeyed lines after keyed ones", () => {
    const lines = trail(6, 4);
    const verdict = check(lines);
    expect(verdict.problems).toEqual([]);
    expect(verdict.notes[0]).toContain("unkeyed up to line 3");
    // A writer appends an unkeyed line after keyed ones (a downgrade): forged.
    const last = lines.at(-1) as ChainedEntry;
    const downgraded = chained(7, last.hash, entry("tool7"));
    expect(check([...lines, downgraded]).problems[0]).toMatchObject({ kind: "line edited", seq: 7 });
  });

  it("asks for a key it was not given instead of passing lines linked with it", () => {
    const rotated = readAuditKey(randomBytes(32).toString("hex"), "AUDIT_HMAC_KEY");
    const lines = trail(3, 1, rotated);
    expect(check(lines).problems).toMatchObject([{ kind: "unknown key", seq: 1 }]);
    expect(check(lines, { keys: new Map([[rotated.id, rotated]]) }).problems).toEqual([]);
  });

  it("names truncation, deletion of all lines and a dropped collection against the anchor", () => {
    const lines = trail(6);
    const anchors = anchorsOf(lines);
    expect(check(lines.slice(0, 4), { anchors, anchored: true }).problems).toMatchObject([
      { kind: "truncated", seq: 5 },
    ]);
    expect(check([], { anchors, anchored: true }).problems).toMatchObject([{ kind: "all lines deleted" }]);
    expect(check([], { anchors, anchored: true, exists: false }).problems).toMatchObject([
      { kind: "collection dropped" },
    ]);
  });

  it("lets retention remove only lines older than AUDIT_RETENTION_DAYS, from the start", () => {
    const lines = trail(10); // line n is 11 - n days old
    const anchors = anchorsOf(lines);
    // Retention 5 days: lines 1–6 are 5 or more days old and may be gone.
    expect(check(lines.slice(6), { anchors, anchored: true, retentionDays: 5 }).problems).toEqual([]);
    expect(kinds(check(lines.slice(8), { anchors, anchored: true, retentionDays: 5 }))).toEqual([
      "retention violated",
    ]);
    // No retention configured: nothing may be missing from the start.
    expect(kinds(check(lines.slice(6), { anchors, anchored: true }))).toEqual(["lines deleted"]);
  });

  it("names a TTL index the configuration does not ask for", () => {
    const lines = trail(3);
    const retention = { name: "retention", key: { expire_at: 1 }, expireAfterSeconds: 0 };
    const planted = { name: "gone", key: { at: 1 }, expireAfterSeconds: 60 };
    expect(check(lines, { ttlIndexes: [retention], retentionDays: 30 }).problems).toEqual([]);
    expect(kinds(check(lines, { ttlIndexes: [retention] }))).toEqual(["TTL index added"]);
    expect(kinds(check(lines, { ttlIndexes: [retention, planted], retentionDays: 30 }))).toEqual([
      "TTL index added",
    ]);
  });

  it("reports removed and moved lines, and a genuine line put in another's place", () => {
    const lines = trail(6);
    expect(check([...lines.slice(0, 2), ...lines.slice(4)]).problems).toMatchObject([
      { kind: "lines deleted", seq: 3, detail: "lines 3–4 are missing (between 2 and 5)" },
    ]);
    const moved = verifyTrail({
      agent: "jira",
      exists: true,
      lines: lines.map((line, index) => ({
        position: index + 1,
        line: (index === 2 ? lines[3] : index === 3 ? lines[2] : line) as ChainedEntry,
      })),
      ttlIndexes: [],
      anchors: [],
      anchored: false,
      keys: new Map([[key.id, key]]),
      now: NOW,
    });
    expect(kinds(moved)).toEqual(["line moved", "line moved"]);
    // A genuine line 3 under the same key (another trail's, or an earlier one's) in today's line 3's place.
    const replaced = [...lines];
    replaced[2] = chained(3, (lines[1] as ChainedEntry).hash, entry("other"), key);
    expect(kinds(check(replaced))).toEqual(["line replaced"]);
  });

  it("hashes content, not key order", () => {
    const a = chained(1, "", entry("x"), key);
    const reordered = Object.fromEntries(Object.entries(entry("x")).reverse()) as unknown as AuditEntry;
    expect(chained(1, "", reordered, key).hash).toBe(a.hash);
  });
});
