import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { testMongoEnv, testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { type Db, MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditEntry } from "../src/audit/entry.js";
import { MongoAuditLog } from "../src/audit/mongo-audit-log.js";
import { testAuditKey } from "./audit-lines.js";

const BIN = join(import.meta.dirname, "..", "bin", "audit-verify.js");

function attempt(subject: string, tool: string): AuditEntry {
  return {
    kind: "attempt",
    at: new Date().toISOString(),
    agent: "jira",
    principal: { subject },
    tool,
    args: { project: "PLAT" },
    decision: "allow",
    policy: ["plat-changes"],
  };
}

/** `pnpm audit:verify` as a process (the built bin), with the agents' MongoDB settings. */
async function verify(
  dbName: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; out: string }> {
  const { MONGODB_URI: _uri, LANGGRAPH_CHECKPOINT_MONGODB_URI: _checkpointUri, ...rest } = process.env;
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...args], {
      env: { ...rest, ...testMongoEnv(dbName), ...env },
    });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, out: stdout + stderr };
  }
}

describe("pnpm audit:verify", () => {
  const dbName = uniqueDbName("audit-verify");
  let mongo: MongoClient;
  let db: Db;

  beforeAll(async () => {
    mongo = await MongoClient.connect(testMongoUri());
    db = mongo.db(dbName);
    const jira = await MongoAuditLog.create(db, "audit_jira", { key: testAuditKey });
    for (const tool of ["create_issue", "transition_issue", "add_comment"])
      await jira.append(attempt("ann", tool));
    const github = await MongoAuditLog.create(db, "audit_github", { retentionDays: 30, key: testAuditKey });
    await github.append({ ...attempt("bob", "merge_pull_request"), agent: "github" });
  });
  afterAll(async () => {
    await db?.dropDatabase();
    await mongo?.close();
  });

  it("passes clean trails and prints a table of every audit_* collection", async () => {
    const { code, out } = await verify(dbName, [], { AUDIT_RETENTION_DAYS: "30" });
    expect(code).toBe(0);
    const rows = out.split("\n").map((row) => row.split(/\s{2,}/));
    expect(rows[0]).toEqual([
      "agent",
      "lines",
      "first seq",
      "last seq",
      "anchored head",
      "keyed",
      "retention",
      "problems",
    ]);
    expect(rows).toContainEqual(["jira", "3", "1", "3", "-", "from 1", "30 days", "ok"]);
    expect(rows).toContainEqual(["github", "1", "1", "1", "-", "from 1", "30 days", "ok"]);
    expect(out).toContain("Intact: 2 trail(s), 4 line(s).");
    // No anchor given: said, since truncation cannot be seen without one.
    expect(out).toContain("note: no anchor given");
  });

  it("takes retention from the configuration: the agents' TTL index is a problem when the verifier is told none", async () => {
    const { code, out } = await verify(dbName, ["--agent", "github"]);
    expect(code).toBe(1);
    expect(out).toContain("audit_github: TTL index added: index retention on expire_at");
    expect((await verify(dbName, ["--agent", "github", "--retention-days", "30"])).code).toBe(0);
  });

  it("cannot verify a keyed trail without the key, and says which setting to give", async () => {
    const { code, out } = await verify(dbName, ["--agent", "jira"], { AUDIT_HMAC_KEY: "" });
    expect(code).toBe(2);
    expect(out).toContain("The audit trail is keyed: set AUDIT_HMAC_KEY");
  });

  it("reports a line edited by hand, exiting 1", async () => {
    await db.collection("audit_jira").updateOne({ _id: 2 as never }, { $set: { decision: "deny" } });
    const { code, out } = await verify(dbName, ["--agent", "jira"]);
    expect(code).toBe(1);
    expect(out).toContain(
      `audit_jira: line edited: line 2 does not match its HMAC under key ${testAuditKey.id}`,
    );
    expect(out).not.toContain("github");
  });

  it("reports lines removed, exiting 1", async () => {
    await db.collection("audit_jira").deleteOne({ _id: 1 as never });
    const { code, out } = await verify(dbName, ["--agent", "jira"]);
    expect(code).toBe(1);
    expect(out).toContain(
      "audit_jira: lines deleted: line 1 is missing: the trail starts at line 2 and AUDIT_RETENTION_DAYS=0 keeps every line",
    );
  });

  it("verifies a trail begun before the key was set, saying where the unkeyed part ends", async () => {
    const before = await MongoAuditLog.create(db, "audit_legacy");
    for (const tool of ["create_issue", "add_comment"])
      await before.append({ ...attempt("ann", tool), agent: "legacy" });
    const after = await MongoAuditLog.create(db, "audit_legacy", { key: testAuditKey });
    await after.append({ ...attempt("ann", "close_issue"), agent: "legacy" });
    const { code, out } = await verify(dbName, ["--agent", "legacy"]);
    expect(code).toBe(0);
    expect(out).toContain(
      "audit_legacy: note: unkeyed up to line 2 (written before AUDIT_HMAC_KEY was set), keyed from line 3",
    );
  });

  it("says what is wrong when it cannot run", async () => {
    const { code, out } = await verify(dbName, ["--bogus"]);
    expect(code).toBe(2);
    expect(out).toContain("Usage: pnpm audit:verify");
    const weak = await verify(dbName, [], { AUDIT_HMAC_KEY: "0".repeat(64) });
    expect(weak.code).toBe(2);
    expect(weak.out).toContain("AUDIT_HMAC_KEY is a weak key");
  });
});
