import { execFile } from "node:child_process";
import { createHash, createHmac, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type AgentConnection, connectAgent } from "@switchboard/a2a-client";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import { type FakeJira, startFakeJira } from "@switchboard-testing/fake-jira";
import { type AgentProcess, startAgentProcess } from "@switchboard-testing/test-agents";
import { type IdentityProvider, signIn, startIdentityProvider } from "@switchboard-testing/test-idp";
import {
  callTool,
  replyFromToolResult,
  rules,
  type ScriptedLlm,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { testMongoEnv, testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import canonicalize from "canonicalize";
import { type Collection, type Document, MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The attacker can write the database (a leaked MongoDB URI, a compromised admin, a backup
 * restored over the live one) and wants a change forgotten or changed in the audit trail: edit a
 * line and recompute every later hash, cut the newest lines, delete all of them, drop the
 * collection, plant a TTL index, swap, insert or transplant lines. The agent keys each line's link
 * (AUDIT_HMAC_KEY, never in the database) and anchors each line outside it as it is written
 * (AUDIT_ANCHOR_FILE). Each test plays the writer with a plain MongoDB client on the trail a real
 * Jira agent wrote for real turns, then runs `pnpm audit:verify` (the bin) as an operator would:
 * exit 1 naming what happened, exit 0 when nothing did.
 */

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const jiraDir = join(repo, "agents", "jira");
const VERIFY_BIN = join(repo, "packages", "agent-runtime", "bin", "audit-verify.js");

/** A stored audit line as the attacker sees it: `_id` its sequence number, the rest plain fields. */
type Line = Document & { _id: number };

/** What the attacker can compute: the published link algorithm, under a key of their own (or none). */
function forgedLink(line: Document, key: Buffer | undefined): string {
  const { _id, seq, prev, hash: _hash, keyId, expire_at: _expire, ...entry } = line;
  const text = canonicalize({ seq, prev, ...(key && keyId ? { keyId } : {}), entry }) ?? "";
  return key
    ? createHmac("sha256", key).update(text).digest("hex")
    : createHash("sha256").update(text).digest("hex");
}

/** Rewrites lines from `from` on, each linked to the one before as the attacker computes it. */
function recompute(lines: Line[], from: number, key: Buffer | undefined): Line[] {
  const out: Line[] = [];
  for (const line of lines) {
    if (line._id < from) {
      out.push(line);
      continue;
    }
    const prev = out.at(-1)?.hash ?? "";
    const { keyId, ...rest } = line;
    const next = { ...rest, prev, ...(key ? { keyId } : {}) };
    out.push({ ...next, hash: forgedLink(next, key) });
  }
  return out;
}

describe("a database writer against the audit trail", () => {
  const dbName = uniqueDbName("adv_audit");
  const dir = scratchDir("adv-audit");
  const anchorFile = join(dir, "audit-anchor.jsonl");
  let idp: IdentityProvider;
  let llm: ScriptedLlm;
  let jira: FakeJira;
  let mongo: MongoClient;
  let agent: AgentProcess;
  let alice: AgentConnection;
  /** The trail the agent wrote, as the database held it before any attack. */
  let genuine: Line[];
  let attacks = 0;

  const agentEnv = (extra: Record<string, string> = {}) => ({
    ...testMongoEnv(dbName),
    ...llm.env,
    AUTH_MODE: "jwt",
    AUTH_JWKS_URL: idp.jwksUrl,
    AUTH_ISSUER: idp.issuer,
    AUTH_AUDIENCE: idp.audience,
    ATLASSIAN_API_URL: jira.url,
    ATLASSIAN_EMAIL: jira.email,
    ATLASSIAN_TOKEN: jira.token,
    AUDIT_ANCHOR_FILE: anchorFile,
    ...extra,
  });

  /** One change through the agent: asked, approved by the asker on the asking task, done. */
  async function change(summary: string): Promise<void> {
    const asked = await alice.send({ text: `create a bug in OPS: ${summary}` });
    expect(asked.state).toBe("input-required");
    const done = await alice.send({ text: "yes", contextId: asked.contextId, taskId: asked.taskId });
    expect(done.state).toBe("completed");
  }

  /** `audit_jira` in database `db`, lines keyed by their sequence number as the agent writes them. */
  const trailIn = (db: string): Collection<Line> => mongo.db(db).collection<Line>("audit_jira");

  /** A copy of the genuine trail in a database of its own, for one attack. */
  async function trailCopy(name: string): Promise<{ db: string; trail: Collection<Line> }> {
    attacks++;
    const db = `${dbName}_${name}`;
    await trailIn(db).insertMany(genuine.map((line) => ({ ...line })));
    return { db, trail: trailIn(db) };
  }

  /** `pnpm audit:verify` as an operator runs it: the agents' MongoDB and audit settings. */
  async function verify(db: string, args: string[] = [], env: Record<string, string> = {}) {
    const { MONGODB_URI: _u, LANGGRAPH_CHECKPOINT_MONGODB_URI: _c, ...rest } = process.env;
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [VERIFY_BIN, ...args], {
        env: { ...rest, ...testMongoEnv(db), AUDIT_ANCHOR_FILE: anchorFile, ...env },
      });
      return { code: 0, out: stdout + stderr };
    } catch (error) {
      const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
      return { code, out: stdout + stderr };
    }
  }

  beforeAll(async () => {
    [idp, jira, mongo] = await Promise.all([
      startIdentityProvider({ users: { alice: { email: "alice@example.com" } } }),
      startFakeJira(),
      MongoClient.connect(testMongoUri()),
    ]);
    llm = await startScriptedLlm({
      script: rules([
        {
          lastUser: /create a bug in ([A-Z]+): (\S+)/,
          reply: (_r, { match }) =>
            callTool("create_issue", { project: match?.[1], summary: match?.[2], issue_type: "Bug" }),
        },
        { afterTool: true, reply: replyFromToolResult() },
      ]),
    });
    agent = await startAgentProcess(jiraDir, { env: agentEnv() });
    alice = await connectAgent(agent.url, { token: await signIn(idp, "alice") });
    for (const summary of ["disk-full", "rotate-certs", "raise-quota"]) await change(summary);
    genuine = await trailIn(dbName)
      .find({}, { sort: { _id: 1 } })
      .toArray();
  });
  afterAll(async () => {
    await agent?.kill("SIGTERM");
    const dbs = await mongo?.db().admin().listDatabases({ nameOnly: true });
    for (const { name } of dbs?.databases ?? [])
      if (name.startsWith(dbName)) await mongo.db(name).dropDatabase();
    await Promise.all([mongo?.close(), llm?.close(), idp?.close(), jira?.close()]);
    console.info(`audit-trail attacks: ${attacks} played, each reported by audit:verify`);
  });

  it("the agent keyed and anchored each line of its real turns, and the intact trail verifies (exit 0)", async () => {
    expect(genuine.map((line) => [line._id, line.kind])).toEqual([
      [1, "attempt"],
      [2, "outcome"],
      [3, "attempt"],
      [4, "outcome"],
      [5, "attempt"],
      [6, "outcome"],
    ]);
    expect(genuine.every((line) => typeof line.keyId === "string")).toBe(true);
    const anchors = readFileSync(anchorFile, "utf8")
      .trim()
      .split("\n")
      .map((row) => JSON.parse(row));
    expect(anchors.map((anchor) => [anchor.agent, anchor.seq, anchor.link])).toEqual(
      genuine.map((line) => ["jira", line._id, line.hash]),
    );
    const { code, out } = await verify(dbName, ["--agent", "jira"]);
    expect(out).toContain("Intact: 1 trail(s), 6 line(s).");
    expect(out.split("\n")[1]?.split(/\s{2,}/)).toEqual([
      "jira",
      "6",
      "1",
      "6",
      "6",
      "from 1",
      "forever",
      "ok",
    ]);
    expect(code).toBe(0);
  });

  it("edits a line and recomputes every later link without the key: chain forged", async () => {
    const { db, trail } = await trailCopy("recomputed");
    const edited = genuine.map((line) =>
      line._id === 3 ? { ...line, args: { ...line.args, project: "SAFE" } } : line,
    );
    await trail.deleteMany({});
    await trail.insertMany(recompute(edited, 3, randomBytes(32)));
    const { code, out } = await verify(db, ["--agent", "jira"]);
    expect(code).toBe(1);
    expect(out).toContain("audit_jira: chain forged: lines 3–6 fail their links");
  });

  it("rewrites the trail as the old unkeyed chain (SHA-256, no key id): chain forged", async () => {
    const { db, trail } = await trailCopy("downgraded");
    const edited = genuine.map((line) =>
      line._id === 1 ? { ...line, principal: { subject: "mallory" } } : line,
    );
    await trail.deleteMany({});
    await trail.insertMany(recompute(edited, 1, undefined));
    const { code, out } = await verify(db);
    expect(code).toBe(1);
    expect(out).toContain("audit_jira: chain forged: lines 1–6 fail their links");
    expect(out).toContain("replaced");
  });

  it("deletes the newest lines: truncated", async () => {
    const { db, trail } = await trailCopy("truncated");
    await trail.deleteMany({ _id: { $gt: 4 } });
    const { code, out } = await verify(db, ["--agent", "jira"]);
    expect(code).toBe(1);
    expect(out).toContain("audit_jira: truncated: lines after 4 are missing: the anchor's head is line 6");
  });

  it("deletes every line: all lines deleted", async () => {
    const { db, trail } = await trailCopy("emptied");
    await trail.deleteMany({});
    const { code, out } = await verify(db, ["--agent", "jira"]);
    expect(code).toBe(1);
    expect(out).toContain(
      "audit_jira: all lines deleted: audit_jira is empty, but the anchor holds 6 line(s)",
    );
  });

  it("deletes the head and adds a TTL index to take the rest: truncated, TTL index added", async () => {
    const { db, trail } = await trailCopy("ttl");
    await trail.deleteOne({ _id: 6 });
    await trail.createIndex({ at: 1 }, { name: "tidy", expireAfterSeconds: 60 });
    const { code, out } = await verify(db);
    expect(code).toBe(1);
    expect(out).toContain("audit_jira: truncated: lines after 5 are missing");
    expect(out).toContain(
      "audit_jira: TTL index added: index tidy on at removes lines (expireAfterSeconds 60)",
    );
  });

  it("drops the collection: collection dropped (found from the anchor, with no --agent)", async () => {
    const { db, trail } = await trailCopy("dropped");
    await trail.drop();
    const { code, out } = await verify(db);
    expect(code).toBe(1);
    expect(out).toContain(
      "audit_jira: collection dropped: audit_jira does not exist, but the anchor holds 6 line(s)",
    );
  });

  it("swaps two lines: line moved", async () => {
    const { db, trail } = await trailCopy("swapped");
    await trail.deleteMany({ _id: { $in: [3, 5] } });
    await trail.insertMany([
      { ...(genuine[4] as Line), _id: 3 },
      { ...(genuine[2] as Line), _id: 5 },
    ]);
    const { code, out } = await verify(db, ["--agent", "jira"]);
    expect(code).toBe(1);
    expect(out).toContain("audit_jira: line moved: the line stored as 3 is line 5");
    expect(out).toContain("audit_jira: line moved: the line stored as 5 is line 3");
  });

  it("inserts a forged line after the head: line forged", async () => {
    const { db, trail } = await trailCopy("inserted");
    const head = genuine.at(-1) as Line;
    const forged = {
      ...head,
      _id: 7,
      seq: 7,
      prev: head.hash,
      kind: "denial",
      decision: "deny",
      tool: "create_issue",
    };
    await trail.insertOne({ ...forged, hash: forgedLink(forged, randomBytes(32)) });
    const { code, out } = await verify(db, ["--agent", "jira"]);
    expect(code).toBe(1);
    expect(out).toContain("audit_jira: line forged: line 7 does not match its HMAC");
  });

  it("deletes a line in the middle: lines deleted", async () => {
    const { db, trail } = await trailCopy("gap");
    await trail.deleteOne({ _id: 3 });
    const { code, out } = await verify(db, ["--agent", "jira"]);
    expect(code).toBe(1);
    expect(out).toContain("audit_jira: lines deleted: line 3 is missing (between 2 and 4)");
  });

  it("deletes the oldest lines as if retention took them: retention violated (retention from the configuration)", async () => {
    const { db, trail } = await trailCopy("early");
    await trail.deleteMany({ _id: { $lt: 3 } });
    const { code, out } = await verify(db, ["--agent", "jira"], { AUDIT_RETENTION_DAYS: "30" });
    expect(code).toBe(1);
    expect(out).toContain(
      "audit_jira: retention violated: lines 1–2 are missing but younger than AUDIT_RETENTION_DAYS=30",
    );
  });

  it("relabels a line with a key id of their own: unknown key", async () => {
    const { db, trail } = await trailCopy("rekeyed");
    const line = { ...(genuine[5] as Line), keyId: "0123456789abcdef" };
    await trail.replaceOne({ _id: 6 }, { ...line, hash: forgedLink(line, randomBytes(32)) });
    const { code, out } = await verify(db, ["--agent", "jira"]);
    expect(code).toBe(1);
    expect(out).toContain("audit_jira: unknown key: line 6 is linked with key 0123456789abcdef");
  });

  it("with a key of all zeros, or none at all under AUTH_MODE=jwt, the agent does not start", async () => {
    attacks++;
    await expect(
      startAgentProcess(jiraDir, {
        env: agentEnv({ AUDIT_HMAC_KEY: "0".repeat(64), AUDIT_ANCHOR_FILE: "" }),
      }),
    ).rejects.toThrow(/exited with code 1[\s\S]*AUDIT_HMAC_KEY is a weak key/);
    await expect(
      startAgentProcess(jiraDir, { env: agentEnv({ AUDIT_HMAC_KEY: "", AUDIT_ANCHOR_FILE: "" }) }),
    ).rejects.toThrow(/exited with code 1[\s\S]*AUDIT_HMAC_KEY is not set and AUTH_MODE=jwt/);
  });

  // Last: it changes the live trail. The writer drops the collection and lets the agent carry on,
  // so the database holds a fresh, well-formed trail under the same key.
  it("drops the collection and lets the agent write a fresh trail: trail rewritten", async () => {
    attacks++;
    await mongo.db(dbName).collection("audit_jira").drop();
    await change("after-the-drop");
    const { code, out } = await verify(dbName, ["--agent", "jira"]);
    expect(code).toBe(1);
    expect(out).toContain("audit_jira: trail rewritten: the anchor holds two different lines 1");
    expect(out).toContain("audit_jira: truncated: lines after 2 are missing: the anchor's head is line 6");
  });
});
