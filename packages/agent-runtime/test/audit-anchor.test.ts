import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import { describe, expect, it } from "vitest";
import { AnchoredAuditLog, AnchorFile, readAnchorFiles } from "../src/audit/anchor.js";
import type { AuditEntry } from "../src/audit/entry.js";
import { readAuditKey } from "../src/audit/key.js";
import { MemoryAuditLog } from "../src/audit/memory-audit-log.js";

const entry: AuditEntry = {
  kind: "denial",
  at: "2026-11-28T10:00:00.000Z",
  agent: "jira",
  principal: { subject: "bob" },
  tool: "create_issue",
  args: {},
  decision: "deny",
  policy: [],
};

describe("the audit anchor file", () => {
  const dir = scratchDir("audit-anchor");

  it("appends each stored line's seq and link as it is written, and reads them back", async () => {
    const file = join(dir, "anchor.jsonl");
    const key = readAuditKey(randomBytes(32).toString("hex"), "AUDIT_HMAC_KEY");
    const anchor = AnchorFile.open(file);
    const log = new AnchoredAuditLog(new MemoryAuditLog(key), anchor);
    const first = await log.append(entry);
    const second = await log.append({ ...entry, at: "2026-11-28T10:00:01.000Z" });
    anchor.close();
    expect(readAnchorFiles([file])).toEqual({
      anchors: [
        { agent: "jira", seq: 1, link: first.hash, keyId: key.id, time: entry.at },
        { agent: "jira", seq: 2, link: second.hash, keyId: key.id, time: "2026-11-28T10:00:01.000Z" },
      ],
      unreadable: [],
    });
    // Appended, never rewritten: a second opening adds after what is there.
    const again = AnchorFile.open(file);
    again.write({ agent: "jira", seq: 3, link: "l3", time: entry.at });
    again.close();
    expect(readFileSync(file, "utf8").trim().split("\n")).toHaveLength(3);
  });

  it("reads anchors from a container log, passing over the agent's own log lines, and names a torn line", () => {
    const file = join(dir, "container.log");
    writeFileSync(
      file,
      [
        JSON.stringify({ level: 30, agent: "jira", msg: "listening" }),
        JSON.stringify({ agent: "jira", seq: 1, link: "l1", time: entry.at }),
        '{"agent":"jira","seq":2,"li',
      ].join("\n"),
    );
    expect(readAnchorFiles([file])).toEqual({
      anchors: [{ agent: "jira", seq: 1, link: "l1", time: entry.at }],
      unreadable: [{ file, line: 3 }],
    });
    expect(() => readAnchorFiles([join(dir, "missing.jsonl")])).toThrow(
      /Cannot read the anchor file .*--anchor/,
    );
  });

  it("says which setting is wrong when the file cannot be opened, and fails the append when it cannot be written", async () => {
    expect(() => AnchorFile.open(join(dir, "no-such-dir", "anchor.jsonl"))).toThrow(
      /AUDIT_ANCHOR_FILE=.*no-such-dir.* cannot be opened for appending/,
    );
    const anchor = AnchorFile.open(join(dir, "closed.jsonl"));
    anchor.close();
    const log = new AnchoredAuditLog(new MemoryAuditLog(), anchor);
    await expect(log.append(entry)).rejects.toThrow(/Audit line 1 is stored but cannot be anchored/);
  });
});
