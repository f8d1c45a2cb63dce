import { parseArgs } from "node:util";
import { createLogger } from "@switchboard/common";
import { collectionsFor } from "@switchboard/contract";
import { redactMongoUri, resolveCheckpointer } from "@switchboard/utils";
import { type Db, MongoClient } from "mongodb";
import { type Anchor, readAnchorFiles } from "./anchor.js";
import type { ChainedEntry } from "./entry.js";
import type { AuditKey } from "./key.js";
import { readAuditSettings } from "./settings.js";
import { type StoredLine, type TrailVerdict, type TtlIndex, verifyTrail } from "./verify-trail.js";

/** One agent's trail, verified. */
export interface TrailReport extends TrailVerdict {
  agent: string;
  collection: string;
  lines: number;
  firstSeq?: number;
  lastSeq?: number;
  /** The first keyed line, if any. */
  keyedFrom?: number;
}

/** What the verifier is told, from the configuration and its flags, never from the database. */
export interface VerifyOptions {
  agent?: string;
  keys: AuditKey[];
  anchors?: Anchor[];
  retentionDays?: number;
  now?: Date;
}

const PREFIX = "audit_";

/**
 * Verifies `audit_<agent>` (or every `audit_*` collection, and every agent the anchor names, so a
 * dropped collection is found): each line's link under its key, that the lines link up in place,
 * and, given anchors, that every anchored line is still there unchanged unless the configured
 * retention let it expire. Retention comes from the options (AUDIT_RETENTION_DAYS), never from the
 * collection: a TTL index the configuration does not ask for is itself a problem.
 */
export async function verifyTrails(db: Db, options: VerifyOptions): Promise<TrailReport[]> {
  const collections = new Set(
    (await db.listCollections({}, { nameOnly: true }).toArray())
      .map(({ name }) => name)
      .filter((name) => name.startsWith(PREFIX)),
  );
  const anchors = options.anchors ?? [];
  const agents = options.agent
    ? [options.agent]
    : [
        ...new Set([
          ...[...collections].map((name) => name.slice(PREFIX.length)),
          ...anchors.map((anchor) => anchor.agent),
        ]),
      ].sort();
  const keys = new Map(options.keys.map((key) => [key.id, key]));
  const reports: TrailReport[] = [];
  for (const agent of agents) {
    const name = collectionsFor(agent).audit;
    const exists = collections.has(name);
    const collection = db.collection(name);
    const ttlIndexes: TtlIndex[] = exists
      ? (await collection.indexes())
          .filter((index) => index.expireAfterSeconds !== undefined)
          .map((index) => ({
            name: index.name ?? "?",
            key: index.key,
            expireAfterSeconds: index.expireAfterSeconds as number,
          }))
      : [];
    const lines: StoredLine[] = [];
    if (exists) {
      for await (const { _id, expire_at: _expire, ...line } of collection.find({}, { sort: { _id: 1 } })) {
        lines.push({ position: Number(_id), line: line as unknown as ChainedEntry });
      }
    }
    const verdict = verifyTrail({
      agent,
      exists,
      lines,
      ttlIndexes,
      anchors: anchors.filter((anchor) => anchor.agent === agent),
      anchored: options.anchors !== undefined,
      keys,
      ...(options.retentionDays ? { retentionDays: options.retentionDays } : {}),
      now: options.now ?? new Date(),
    });
    const keyedFrom = lines.find(({ line }) => line.keyId !== undefined)?.position;
    reports.push({
      agent,
      collection: name,
      lines: lines.length,
      ...(lines[0] ? { firstSeq: lines[0].position, lastSeq: lines.at(-1)?.position } : {}),
      ...(keyedFrom !== undefined ? { keyedFrom } : {}),
      ...verdict,
    });
  }
  return reports;
}

/** The reports as a table, then each problem and each note on its own line. */
export function formatReports(reports: TrailReport[], retentionDays: number | undefined): string {
  const rows = [
    ["agent", "lines", "first seq", "last seq", "anchored head", "keyed", "retention", "problems"],
    ...reports.map((report) => [
      report.agent,
      String(report.lines),
      report.firstSeq === undefined ? "-" : String(report.firstSeq),
      report.lastSeq === undefined ? "-" : String(report.lastSeq),
      report.anchoredHead === undefined ? "-" : String(report.anchoredHead),
      report.keyedFrom === undefined ? "no" : `from ${report.keyedFrom}`,
      retentionDays ? `${retentionDays} days` : "forever",
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
    report.problems.map((problem) => `${report.collection}: ${problem.kind}: ${problem.detail}`),
  );
  const notes = reports.flatMap((report) =>
    report.notes.map((note) => `${report.collection}: note: ${note}`),
  );
  const broken = reports.filter((report) => report.problems.length > 0).length;
  const summary = broken
    ? `${broken} of ${reports.length} trail(s) tampered with or incomplete.`
    : `Intact: ${reports.length} trail(s), ${reports.reduce((sum, report) => sum + report.lines, 0)} line(s).`;
  return [
    ...table,
    ...(problems.length ? ["", ...problems] : []),
    ...(notes.length ? ["", ...notes] : []),
    "",
    summary,
  ].join("\n");
}

const USAGE = `Usage: pnpm audit:verify [--agent <name>] [--anchor <file>]... [--retention-days <n>]

Verifies audit_<agent> (or every audit_* collection and every agent the anchor names) in the
database the agents use (LANGGRAPH_CHECKPOINT_MONGODB_URI or MONGODB_URI,
LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME): each line's HMAC under AUDIT_HMAC_KEY (older keys:
AUDIT_HMAC_PREVIOUS_KEYS), that the lines link up, and that every line the anchor file(s) hold is
still there unchanged. --anchor defaults to AUDIT_ANCHOR_FILE; give one per host or replica that
wrote one. --retention-days defaults to AUDIT_RETENTION_DAYS: only lines older than that may be
missing from the start. Exits 1 naming what happened (truncated, lines deleted, line edited, chain
forged, all lines deleted, collection dropped, retention violated, TTL index added, …), 0 when every
trail is intact, 2 when it cannot run.`;

/** The command: 0 when every trail verifies, 1 when one is broken, 2 when it cannot run. */
export async function runAuditVerify(
  argv: string[],
  env: NodeJS.ProcessEnv,
  out: (text: string) => void = (text) => process.stdout.write(`${text}\n`),
  err: (text: string) => void = (text) => process.stderr.write(`${text}\n`),
): Promise<number> {
  let options: VerifyOptions;
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        agent: { type: "string" },
        anchor: { type: "string", multiple: true },
        "retention-days": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
    if (values.help) {
      out(USAGE);
      return 0;
    }
    const settings = readAuditSettings({
      ...env,
      ...(values["retention-days"] !== undefined ? { AUDIT_RETENTION_DAYS: values["retention-days"] } : {}),
    });
    const anchorFiles = values.anchor ?? (settings.anchorFile ? [settings.anchorFile] : []);
    let anchors: Anchor[] | undefined;
    if (anchorFiles.length > 0) {
      const reading = readAnchorFiles(anchorFiles);
      anchors = reading.anchors;
      for (const { file, line } of reading.unreadable) err(`Skipped unreadable anchor line ${file}:${line}.`);
    }
    options = {
      ...(values.agent ? { agent: values.agent } : {}),
      keys: [...(settings.key ? [settings.key] : []), ...settings.previousKeys],
      ...(anchors ? { anchors } : {}),
      ...(settings.retentionDays ? { retentionDays: settings.retentionDays } : {}),
    };
  } catch (error) {
    err(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  let resolved: ReturnType<typeof resolveCheckpointer>;
  try {
    resolved = resolveCheckpointer({
      env,
      agentName: options.agent ?? "audit-verify",
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
    const reports = await verifyTrails(client.db(resolved.dbName), options);
    if (reports.length === 0) {
      out(`No audit trail in ${redactMongoUri(resolved.uri)} (database ${resolved.dbName}).`);
      return 0;
    }
    if (options.keys.length === 0 && reports.some((report) => report.keyedFrom !== undefined)) {
      err(
        "The audit trail is keyed: set AUDIT_HMAC_KEY (and AUDIT_HMAC_PREVIOUS_KEYS for older keys) to the agents' key to verify it.",
      );
      return 2;
    }
    out(formatReports(reports, options.retentionDays));
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
