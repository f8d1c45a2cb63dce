// LANGGRAPH_CHECKPOINT_TYPE=postgres (CAIPE's setting): LangGraph's own PostgresSaver, each agent in
// its own schema (`checkpoints_<agent>`, the collections' naming rule), with retention swept here.
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { type Logger, redactSecrets, SwitchboardError } from "@switchboard/common";
import { type Db, MongoClient } from "mongodb";
import pg from "pg";
import { withoutAgent } from "./agent-logger.js";
import type { CheckpointSettings } from "./checkpoint-env.js";
import { checkpointMetrics, instrumentSaver } from "./checkpoint-metrics.js";
import type { CheckpointerHandle, CheckpointerInfo } from "./checkpointer-handle.js";
import { databaseFromUri, encodeMongoUri, redactMongoUri } from "./mongo-uri.js";

type PostgresSettings = Extract<CheckpointSettings, { type: "postgres" }>;

/** The schema an agent's checkpoint tables live in: `checkpoints_<agent>`, as its MongoDB collections are named. */
export function postgresSchema(agent: string): string {
  return `checkpoints_${agent}`;
}

/** How often expired conversations are looked for, when retention is on. */
const SWEEP_INTERVAL_MS = 10 * 60_000;

export async function buildPostgres(
  agent: string,
  settings: PostgresSettings,
  logger: Logger,
  defaultDbName: string,
): Promise<CheckpointerHandle> {
  const shown = redactSecrets(settings.dsn);
  const schema = postgresSchema(agent);
  const pool = new pg.Pool({
    connectionString: settings.dsn,
    connectionTimeoutMillis: settings.timeoutMs,
    application_name: `switchboard-${agent}`,
  });
  // An idle client that loses its server must not crash the process: the next query reports it.
  pool.on("error", (error) => logger.warn({ err: redactSecrets(error.message) }, "PostgreSQL client error"));
  const saver = new PostgresSaver(pool, undefined, { schema });
  try {
    await saver.setup();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new SwitchboardError(
      "checkpointer.unreachable",
      "system",
      `Cannot use PostgreSQL at ${shown} (from LANGGRAPH_CHECKPOINT_POSTGRES_DSN) for agent "${agent}": ` +
        `${redactSecrets(error instanceof Error ? error.message : String(error))}. Start PostgreSQL, correct ` +
        "LANGGRAPH_CHECKPOINT_POSTGRES_DSN, or set LANGGRAPH_CHECKPOINT_TYPE=memory to run without persistence.",
      { cause: error },
    );
  }
  const ttlSeconds = settings.ttlMinutes > 0 ? Math.round(settings.ttlMinutes * 60) : undefined;
  const sweeper = ttlSeconds ? startSweeper(pool, saver, schema, ttlSeconds, logger) : undefined;
  const side = settings.mongoUri ? await sideDatabase(settings, agent, defaultDbName) : undefined;
  if (!side) {
    logger.warn(
      "LANGGRAPH_CHECKPOINT_TYPE=postgres without MONGODB_URI: checkpoints persist to PostgreSQL, but A2A tasks " +
        "and the audit trail are kept in memory. Set MONGODB_URI to keep them too.",
    );
  }
  const info: CheckpointerInfo = { agent, backend: "postgres", dsn: shown, schema };
  if (ttlSeconds) info.ttlSeconds = ttlSeconds;
  logger.info(withoutAgent(info), "Checkpoints persist to PostgreSQL");
  const metrics = checkpointMetrics();
  return {
    saver: instrumentSaver(saver, "postgres", agent, metrics),
    metrics,
    info,
    db: side?.db,
    ping: async () => {
      try {
        await pool.query("select 1");
        return true;
      } catch {
        return false;
      }
    },
    close: async () => {
      if (sweeper) clearInterval(sweeper);
      await side?.client.close();
      await pool.end();
    },
  };
}

/**
 * Conversations expire as a whole, as on MongoDB: a thread whose newest checkpoint is older than the
 * retention is deleted with LangGraph's own deleteThread (checkpoints, blobs and writes together).
 */
async function sweepExpired(
  pool: pg.Pool,
  saver: PostgresSaver,
  schema: string,
  ttlSeconds: number,
): Promise<number> {
  const { rows } = await pool.query<{ thread_id: string }>(
    `select thread_id from "${schema}".checkpoints group by thread_id
     having max((checkpoint->>'ts')::timestamptz) < now() - make_interval(secs => $1)`,
    [ttlSeconds],
  );
  for (const { thread_id } of rows) await saver.deleteThread(thread_id);
  return rows.length;
}

function startSweeper(
  pool: pg.Pool,
  saver: PostgresSaver,
  schema: string,
  ttlSeconds: number,
  logger: Logger,
): NodeJS.Timeout {
  const sweep = () =>
    sweepExpired(pool, saver, schema, ttlSeconds).then(
      (count) => count > 0 && logger.info({ count }, "Expired conversations deleted from PostgreSQL"),
      (error: unknown) =>
        logger.warn({ err: redactSecrets(String(error)) }, "Could not delete expired conversations"),
    );
  void sweep();
  const timer = setInterval(sweep, Math.min(SWEEP_INTERVAL_MS, ttlSeconds * 1000));
  timer.unref();
  return timer;
}

/** A2A tasks, audit records and the other per-agent collections stay on MongoDB when a URI is set. */
async function sideDatabase(
  settings: PostgresSettings,
  agent: string,
  defaultDbName: string,
): Promise<{ client: MongoClient; db: Db }> {
  const uri = encodeMongoUri(settings.mongoUri as string);
  const client = new MongoClient(uri, {
    serverSelectionTimeoutMS: settings.timeoutMs,
    appName: `switchboard-${agent}`,
  });
  try {
    await client.connect();
    const db = client.db(settings.mongoDbName ?? databaseFromUri(uri) ?? defaultDbName);
    await db.command({ ping: 1 });
    return { client, db };
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new SwitchboardError(
      "checkpointer.unreachable",
      "system",
      `Cannot use MongoDB at ${redactMongoUri(uri)} (from MONGODB_URI) for agent "${agent}"'s tasks: ` +
        `${redactSecrets(error instanceof Error ? error.message : String(error))}. Start MongoDB or unset MONGODB_URI.`,
      { cause: error },
    );
  }
}
