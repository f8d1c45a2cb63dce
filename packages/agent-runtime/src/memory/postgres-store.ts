// LANGGRAPH_STORE_TYPE=postgres (CAIPE's setting): long-term memory in LangGraph's own PostgresStore,
// each agent in its own schema named as its MongoDB collection would be (`store_<agent>`), beside the
// checkpoints' `checkpoints_<agent>`. Loaded only then: a MongoDB agent never loads pg.
import type { Item, Operation, OperationResults } from "@langchain/langgraph";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { type Logger, redactSecrets, SwitchboardError } from "@switchboard/common";
import { type StoreHandle, storeCollection } from "@switchboard/utils";
import pg from "pg";
import type { DsnVariable } from "./settings.js";

export interface PostgresStoreInfo {
  agent: string;
  backend: "postgres";
  /** The DSN with its password masked. */
  dsn: string;
  schema: string;
  ttlMinutes: number;
}

export interface PostgresStoreHandle extends Omit<StoreHandle, "info"> {
  readonly info: PostgresStoreInfo;
}

export interface PostgresStoreOptions {
  agent: string;
  dsn: string;
  /** Where the DSN came from, named in errors. */
  dsnVariable: DsnVariable;
  /** 0: kept until deleted (LANGGRAPH_STORE_TTL_MINUTES). */
  ttlMinutes: number;
  logger: Logger;
}

/** As long as a MongoDB server selection may take (LANGGRAPH_CHECKPOINT_MONGODB_TIMEOUT_MS's default). */
const CONNECT_TIMEOUT_MS = 5_000;
/** How often expired memories are deleted (reads already skip them). */
const SWEEP_INTERVAL_MS = 10 * 60_000;

/**
 * PostgresStore keeps a namespace as its labels joined by ":" and finds a prefix with `LIKE
 * 'prefix%'`, so `["memories", "ab"]` would also match `["memories", "abc"]`, and a label holding ":"
 * would read as two. Here a label may not hold ":", and a search keeps only the items whose
 * namespace begins with the prefix label by label: one user's key never reads another's.
 */
class LabelExactPostgresStore extends PostgresStore {
  override async put(
    namespace: string[],
    key: string,
    value: Record<string, unknown>,
    index?: false | string[],
    options?: { ttl?: number },
  ): Promise<void> {
    return super.put(checked(namespace), key, value, index, options);
  }

  override async get(namespace: string[], key: string): Promise<Item | null> {
    return super.get(checked(namespace), key);
  }

  override async delete(namespace: string[], key: string): Promise<void> {
    return super.delete(checked(namespace), key);
  }

  override async search(...args: Parameters<PostgresStore["search"]>): ReturnType<PostgresStore["search"]> {
    const [prefix, options] = args;
    return (await super.search(checked(prefix), options)).filter((item) => under(prefix, item.namespace));
  }

  override async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    for (const operation of operations) {
      if ("namespacePrefix" in operation) checked(operation.namespacePrefix);
      else if ("namespace" in operation) checked(operation.namespace);
    }
    const results = (await super.batch(operations)) as unknown[];
    return results.map((result, i) => {
      const operation = operations[i];
      return operation && "namespacePrefix" in operation
        ? (result as Item[]).filter((item) => under(operation.namespacePrefix, item.namespace))
        : result;
    }) as OperationResults<Op>;
  }
}

function checked(namespace: string[]): string[] {
  const bad = namespace.find((label) => label.includes(":"));
  if (bad !== undefined)
    throw new Error(`A namespace label may not contain ":" on PostgreSQL (got "${bad}").`);
  return namespace;
}

function under(prefix: string[], namespace: string[]): boolean {
  return prefix.every((label, i) => namespace[i] === label);
}

/**
 * The agent's long-term store on PostgreSQL: tables made at start-up (an unreachable server is an
 * error naming it and the setting), items expiring `ttlMinutes` after their last write as on MongoDB,
 * and a cheap revision of a user's items so recall reads them again only when they changed.
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresStoreHandle> {
  const { agent, dsn, dsnVariable, ttlMinutes, logger } = options;
  const shown = redactSecrets(dsn);
  const schema = storeCollection(agent);
  const store = new LabelExactPostgresStore({
    connectionOptions: {
      connectionString: dsn,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      application_name: `switchboard-${agent}-store`,
    },
    schema,
    // Its own sweeper would log with console: expired items are deleted below instead.
    ...(ttlMinutes > 0 ? { ttl: { defaultTtl: ttlMinutes, refreshOnRead: false } } : {}),
  });
  const pool = poolOf(store);
  // An idle connection the server drops must not stop the agent: the next query reports it.
  pool.on("error", (error) =>
    logger.warn({ err: redactSecrets(error.message) }, "PostgreSQL store client error"),
  );
  try {
    await store.setup();
    // LANGGRAPH_STORE_TTL_MINUTES=0 keeps items: expiries an earlier setting gave them go.
    if (ttlMinutes === 0) {
      await pool.query(`update "${schema}".store set expires_at = null where expires_at > now()`);
    }
  } catch (error) {
    await store.stop().catch(() => undefined);
    throw new SwitchboardError(
      "store.unreachable",
      "system",
      `Cannot use PostgreSQL at ${shown} (from ${dsnVariable}) for the ${agent} agent's long-term store: ` +
        `${redactSecrets(error instanceof Error ? error.message : String(error), [dsn])}. Start PostgreSQL, ` +
        `correct ${dsnVariable}, or set LANGGRAPH_STORE_TYPE=memory or none.`,
      { cause: error },
    );
  }
  const sweeper = ttlMinutes > 0 ? startSweeper(store, ttlMinutes, logger) : undefined;
  const info: PostgresStoreInfo = { agent, backend: "postgres", dsn: shown, schema, ttlMinutes };
  logger.info({ dsn: shown, schema, ttlMinutes }, "Long-term memory persists to PostgreSQL");
  return {
    store,
    info,
    // One indexed query (the primary key starts with the namespace): the count and the newest write.
    revision: async (namespace) => {
      const { rows } = await pool.query<{ count: number; newest: Date | null }>(
        `select count(*)::int as count, max(updated_at) as newest from "${schema}".store
         where namespace_path = $1 and (expires_at is null or expires_at > now())`,
        [checked(namespace).join(":")],
      );
      return `${rows[0]?.count ?? 0}:${rows[0]?.newest?.getTime() ?? 0}`;
    },
    close: async () => {
      if (sweeper) clearInterval(sweeper);
      await store.stop();
    },
  };
}

/** PostgresStore builds its pool from the options given; the agent needs it for errors and revisions. */
function poolOf(store: PostgresStore): pg.Pool {
  const pool = (store as unknown as { core?: { pool?: unknown } }).core?.pool;
  if (!(pool instanceof pg.Pool)) {
    throw new Error("PostgresStore no longer keeps its pool at core.pool: update openPostgresStore.");
  }
  return pool;
}

function startSweeper(store: PostgresStore, ttlMinutes: number, logger: Logger): NodeJS.Timeout {
  const sweep = () =>
    store.sweepExpiredItems().then(
      (count) => count > 0 && logger.info({ count }, "Expired memories deleted from PostgreSQL"),
      (error: unknown) =>
        logger.warn({ err: redactSecrets(String(error)) }, "Could not delete expired memories"),
    );
  const timer = setInterval(sweep, Math.min(SWEEP_INTERVAL_MS, ttlMinutes * 60_000));
  timer.unref();
  return timer;
}
