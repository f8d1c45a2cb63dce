import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import pg from "pg";

/** What the store's queries need of a database: the same SQL ($1 parameters) runs on either engine. */
export interface Queryable {
  query<R>(sql: string, params?: unknown[]): Promise<R[]>;
  /** Runs a script of several statements (no parameters): the schema. */
  exec(sql: string): Promise<void>;
}

export interface Engine extends Queryable {
  /** PostgreSQL + pgvector (a server), or PGlite (embedded, in this process). */
  readonly kind: "postgres" | "pglite";
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * PostgreSQL's text cannot hold the NUL character (it refuses the whole statement), so no stored text
 * has one: it is dropped from every text parameter, on both engines, and a search or a document with
 * one works as without it.
 */
function storable(params: unknown[]): unknown[] {
  const clean = (value: unknown): unknown =>
    typeof value === "string"
      ? value.replaceAll("\u0000", "")
      : Array.isArray(value)
        ? value.map(clean)
        : value;
  return params.map(clean);
}

/**
 * Vector searches filtered by reader keep walking the HNSW graph until enough rows pass the filter
 * (pgvector 0.8), in exact distance order; without it a reader of few documents could get fewer hits
 * than exist (the graph's first 40 candidates, most of them filtered out).
 */
const ITERATIVE_SCAN = "hnsw.iterative_scan=strict_order";

/** A PostgreSQL server with pgvector, through node-postgres' pool. */
export function postgresEngine(dsn: string, options: { maxConnections?: number } = {}): Engine {
  const pool = new pg.Pool({
    connectionString: dsn,
    max: options.maxConnections ?? 10,
    options: `-c ${ITERATIVE_SCAN}`,
  });
  // An idle connection the server drops must not crash the process; the next query gets a new one.
  pool.on("error", () => {});
  return {
    kind: "postgres",
    async query<R>(sql: string, params: unknown[] = []) {
      return (await pool.query(sql, storable(params))).rows as R[];
    },
    async exec(sql: string) {
      await pool.query(sql);
    },
    async transaction<T>(work: (tx: Queryable) => Promise<T>) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await work({
          query: async <R>(sql: string, params: unknown[] = []) =>
            (await client.query(sql, storable(params))).rows as R[],
          exec: async (sql: string) => {
            await client.query(sql);
          },
        });
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/**
 * PGlite (PostgreSQL compiled to WebAssembly) with its pgvector build: nothing to install. `dataDir`
 * is a folder it keeps its files in, or undefined for memory only (tests). One connection, so its
 * queries run one at a time.
 */
export async function pgliteEngine(dataDir?: string): Promise<Engine> {
  const db = await PGlite.create({ ...(dataDir ? { dataDir } : {}), extensions: { vector } });
  await db.exec("CREATE EXTENSION IF NOT EXISTS vector");
  await db.exec(`SET ${ITERATIVE_SCAN.replace("=", " = ")}`);
  return {
    kind: "pglite",
    async query<R>(sql: string, params: unknown[] = []) {
      return (await db.query<R>(sql, storable(params))).rows;
    },
    async exec(sql: string) {
      await db.exec(sql);
    },
    transaction<T>(work: (tx: Queryable) => Promise<T>) {
      return db.transaction((tx) =>
        work({
          query: async <R>(sql: string, params: unknown[] = []) =>
            (await tx.query<R>(sql, storable(params))).rows,
          exec: async (sql: string) => {
            await tx.exec(sql);
          },
        }),
      );
    },
    close: () => db.close(),
  };
}
