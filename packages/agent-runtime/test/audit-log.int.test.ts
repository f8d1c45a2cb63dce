import { testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { type Db, MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditEntry } from "../src/audit/entry.js";
import { MongoAuditLog } from "../src/audit/mongo-audit-log.js";
import { chainProblems, testAuditKey } from "./audit-lines.js";

function attempt(subject: string, tool: string, agent = "jira"): AuditEntry {
  return {
    kind: "attempt",
    at: new Date().toISOString(),
    agent,
    principal: { subject },
    tool,
    args: { project: "PLAT" },
    decision: "allow",
    policy: ["plat-changes"],
  };
}

// Two logs on one collection are two replicas of an agent appending at once.
describe("an agent's audit trail in MongoDB", () => {
  const dbName = uniqueDbName("audit");
  let mongo: MongoClient;
  let db: Db;

  beforeAll(async () => {
    mongo = await MongoClient.connect(testMongoUri());
    db = mongo.db(dbName);
  });
  afterAll(async () => {
    await db?.dropDatabase();
    await mongo?.close();
  });

  it("keeps one unbroken chain when replicas append at the same moment", async () => {
    const [one, two] = await Promise.all([
      MongoAuditLog.create(db, "audit_jira", { key: testAuditKey }),
      MongoAuditLog.create(db, "audit_jira", { key: testAuditKey }),
    ]);
    const appends = Array.from({ length: 12 }, (_, index) =>
      (index % 2 ? one : two).append(attempt(index % 3 ? "alice" : "bob", `tool${index}`)),
    );
    const sequences = (await Promise.all(appends)).map((line) => line.seq);
    expect(new Set(sequences).size).toBe(12);
    const lines = [];
    for await (const line of one.all()) lines.push(line);
    expect(lines.map((line) => line.seq)).toEqual(Array.from({ length: 12 }, (_, index) => index + 1));
    expect(chainProblems(lines)).toEqual([]);
    const bobs = await two.read({ subject: "bob" });
    expect(bobs.length).toBe(4);
    expect(bobs.every((line) => line.principal.subject === "bob")).toBe(true);
  });

  it("reports a line edited by hand in the database", async () => {
    const log = await MongoAuditLog.create(db, "audit_github", { key: testAuditKey });
    for (const tool of ["create_issue", "merge_pull_request", "add_comment"])
      await log.append(attempt("alice", tool, "github"));
    await db.collection("audit_github").updateOne({ _id: 2 as never }, { $set: { decision: "deny" } });
    const lines = [];
    for await (const line of log.all()) lines.push(line);
    expect(chainProblems(lines)).toEqual([
      {
        kind: "line edited",
        seq: 2,
        detail: `line 2 does not match its HMAC under key ${testAuditKey.id}`,
      },
    ]);
  });
});
