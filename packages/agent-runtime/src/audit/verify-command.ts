import { parseArgs } from "node:util";
import { createLogger } from "@switchboard/common";
import { collectionsFor } from "@switchboard/contract";
import { redactMongoUri, resolveCheckpointer } from "@switchboard/utils";
import { type Db, MongoClient } from "mongodb";
import { type ChainProblem, verifyChain } from "./chain.js";
import type { ChainedEntry } from "./entry.js";

/** One agent's trail, verified. */
export interface TrailReport {
  agent: string;
  collection: string;
  lines: number;
  firstSeq?: number;
  lastSeq?: number;
  /** Whether a TTL index removes old lines (AUDIT_RETENTION_DAYS): the trail may then start after 1. */
  retention: boolean;
  problems: ChainProblem[];
}

const PREFIX = "audit_";

/**
 * Verifies `audit_<agent>` (or every `audit_*` collection): each line's hash, and that no line
 * before or between others was removed. Whether old lines may be missing (retention) is read from
 * the collection itself: a TTL index means AUDIT_RETENTION_DAYS was on.
 */
export async function verifyTrails(db: Db, agent?: string): Promise<TrailReport[]> {
  const names = agent
    ? [collectionsFor(agent).audit]
    : (await db.listCollections({}, { nameOnly: true }).toArray())
        .map(({ name }) => name)
        .filter((name) => name.startsWith(PREFIX))
        .sort();
  const reports: TrailReport[] = [];
  for (const name of names) {
    const collection = db.collection(name);
    const indexes = await collection.indexes().catch(() => []);
    const retention = indexes.some((index) => index.expireAfterSeconds !== undefined);
    const lines: ChainedEntry[] = [];
    for await (const { _id, expire_at: _expire, ...line } of collection.find({}, { sort: { _id: 1 } })) {
      lines.push(line as unknown as ChainedEntry);
    }
    reports.push({
      agent: name.slice(PREFIX.length),
      collection: name,
      lines: lines.length,
      ...(lines[0] ? { firstSeq: lines[0].seq, lastSeq: lines.at(-1)?.seq } : {}),
      retention,
      problems: verifyChain(lines, { retention }),
    });
  }
  return reports;
}

/** The reports as a table, then each problem on its own line. */
export function formatReports(reports: TrailReport[]): string {
  const rows = [
    ["agent", "lines", "first seq", "last seq", "retention", "problems"],
    ...reports.map((report) => [
      report.agent,
      String(report.lines),
      report.firstSeq === undefined ? "-" : String(report.firstSeq),
      report.lastSeq === undefined ? "-" : String(report.lastSeq),
      report.retention ? "TTL" : "none",
      report.problems.length ? String(report.problems.length) : "ok",
    ]),
  ];
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  const table = rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join("  ")
      .trimEnd(),
  );
  const problems = reports.flatMap((report) =>
    report.problems.map(
      (problem) =>
        `${report.collection} line ${problem.seq}: ${problem.problem === "changed" ? "line edited" : problem.problem === "missing-before" ? "lines removed" : "out of order"}: ${problem.detail}`,
    ),
  );
  return [...table, ...(problems.length ? ["", ...problems] : [])].join("\n");
}

const USAGE = `Usage: pnpm audit:verify [--agent <name>]

Verifies the hash chain of audit_<agent> (or of every audit_* collection) in the database the agents
use (LANGGRAPH_CHECKPOINT_MONGODB_URI or MONGODB_URI, LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME). Exits 1
when a line was edited or removed, 2 when it cannot run.`;

/** The command: 0 when every trail verifies, 1 when one is broken, 2 when it cannot run. */
export async function runAuditVerify(
  argv: string[],
  env: NodeJS.ProcessEnv,
  out: (text: string) => void = (text) => process.stdout.write(`${text}\n`),
  err: (text: string) => void = (text) => process.stderr.write(`${text}\n`),
): Promise<number> {
  let agent: string | undefined;
  try {
    const { values } = parseArgs({
      args: argv,
      options: { agent: { type: "string" }, help: { type: "boolean", short: "h" } },
    });
    if (values.help) {
      out(USAGE);
      return 0;
    }
    agent = values.agent;
  } catch (error) {
    err(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  let resolved: ReturnType<typeof resolveCheckpointer>;
  try {
    resolved = resolveCheckpointer({
      env,
      agentName: agent ?? "audit-verify",
      logger: createLogger({ level: "silent" }),
    });
  } catch (error) {
    err(error instanceof Error ? error.message : String(error));
    return 2;
  }
  if (resolved.backend !== "mongodb") {
    err(
      "No MongoDB is configured (set LANGGRAPH_CHECKPOINT_MONGODB_URI or MONGODB_URI): an agent without it keeps its audit trail in memory only.",
    );
    return 2;
  }
  const client = new MongoClient(resolved.uri, { serverSelectionTimeoutMS: resolved.settings.timeoutMs });
  try {
    await client.connect();
    const reports = await verifyTrails(client.db(resolved.dbName), agent);
    if (reports.length === 0) {
      out(`No audit trail in ${redactMongoUri(resolved.uri)} (database ${resolved.dbName}).`);
      return 0;
    }
    out(formatReports(reports));
    return reports.some((report) => report.problems.length > 0) ? 1 : 0;
  } catch (error) {
    err(
      `Cannot read the audit trail in ${redactMongoUri(resolved.uri)}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return 2;
  } finally {
    await client.close();
  }
}
