// pnpm bench:knowledge — the knowledge store on a generated corpus of BENCH_KNOWLEDGE_CHUNKS chunks
// (default 100,000): ingest chunks/s, query p50/p95 and recall@5 (keyword alone, hybrid, vector
// alone) on the question set kept beside it, on the embedded default (PGlite) and on the engine
// (PostgreSQL + pgvector). Embeddings: WordLlama, a real small model that runs offline, through the
// runtime's OpenAI client (testing/test-python). See README.md.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { Principal } from "@switchboard/agent-runtime";
import { createEmbeddings, readEmbeddingsSettings } from "@switchboard/agent-runtime/embeddings";
import {
  type Engine,
  type KnowledgeStore,
  openKnowledgeStore,
  pgliteEngine,
  postgresEngine,
} from "@switchboard/knowledge";
import { startPostgres, type TestPostgres } from "@switchboard-testing/test-postgres";
import { STATIC_EMBEDDINGS_MODEL, startStaticEmbeddings } from "@switchboard-testing/test-python";
import { benchReport } from "../src/readme.js";
import { bulkLoad, withoutSearchIndexes } from "./bulk-load.js";
import {
  type CorpusPage,
  corpusPages,
  type KnownQuestion,
  knownQuestions,
  readQuestionSet,
} from "./corpus.js";

const SIZE = Number(process.env.BENCH_KNOWLEDGE_CHUNKS ?? 100_000);
/**
 * The embedded default's corpus, when smaller: PGlite is PostgreSQL in WebAssembly on one thread, and
 * its ingest of 100k chunks outlasts a bench run on a shared 2-core machine. The table says the size.
 */
const PGLITE_SIZE = Number(process.env.BENCH_KNOWLEDGE_PGLITE_CHUNKS ?? SIZE);
/**
 * Chunks ingested through the store's own upsert (their rate is the table's ingest rate); the rest of
 * the corpus is loaded in bulk (bulk-load.ts), so the queries run over the whole corpus in a run's time.
 */
const INGEST_SIZE = Number(process.env.BENCH_KNOWLEDGE_INGEST_CHUNKS ?? 2_000);
/** Pages a bulk INSERT carries. */
const BULK_BATCH = 2_000;
const ENGINES = (process.env.BENCH_KNOWLEDGE_ENGINES ?? "pglite,postgres").split(",").map((e) => e.trim());
/** Pages handed to the store in one upsert, as a sync hands over a listing's page. */
const BATCH = 500;
/** Timed rounds over the question set per mode (after one untimed round that warms caches). */
const ROUNDS = Number(process.env.BENCH_KNOWLEDGE_ROUNDS ?? 3);
const SOURCE = "bench";
/** The asker: signed in, in the sre group; some pages are for finance only, which the filter must drop. */
const PRINCIPAL: Principal = { subject: "bench", groups: ["sre"], authenticated: true };
const MODES = ["keyword", "hybrid", "vector"] as const;
type Mode = (typeof MODES)[number];

/**
 * The model's vectors kept by text, and the time spent in the model: each chunk is embedded once for
 * both engines, and an engine's ingest rate is its own (store writes and index upkeep), the model's
 * rate reported apart. Questions are embedded at every query, as a user's are.
 */
class RememberedEmbeddings implements EmbeddingsInterface {
  private readonly vectors = new Map<string, number[]>();
  modelMs = 0;
  embedded = 0;
  constructor(private readonly model: EmbeddingsInterface) {}

  async embedDocuments(texts: string[]): Promise<number[][]> {
    const missing = [...new Set(texts.filter((text) => !this.vectors.has(text)))];
    if (missing.length > 0) {
      const started = performance.now();
      const vectors = await this.model.embedDocuments(missing);
      this.modelMs += performance.now() - started;
      this.embedded += missing.length;
      for (const [index, text] of missing.entries()) this.vectors.set(text, vectors[index] as number[]);
    }
    return texts.map((text) => this.vectors.get(text) as number[]);
  }

  embedQuery(text: string): Promise<number[]> {
    return this.model.embedQuery(text);
  }
}

interface EngineResult {
  engine: string;
  chunks: number;
  /** Chunks that went through the store's upsert, and how long that took. */
  ingestedChunks: number;
  ingestSeconds: number;
  storeChunksPerSecond: number;
  /** The rest, loaded in bulk (bulk-load.ts), embedding included. */
  bulkSeconds: number;
  latency: Record<Mode, { p50: number; p95: number }>;
  recall: Record<Mode, { literal: number; paraphrase: number; all: number }>;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function ingest(
  engine: Engine,
  store: KnowledgeStore,
  embeddings: RememberedEmbeddings,
  label: string,
  size: number,
) {
  const set = readQuestionSet();
  const modelBefore = embeddings.modelMs;
  let started = performance.now();
  let batch: CorpusPage[] = [];
  let done = 0;
  const upsert = async () => {
    const result = await store.upsertDocuments(SOURCE, batch);
    if (result.failed.length > 0) throw new Error(`${label}: ${JSON.stringify(result.failed[0])}`);
  };
  const measured = async () => {
    const wallMs = performance.now() - started;
    const storeMs = wallMs - (embeddings.modelMs - modelBefore);
    const chunks = (await store.syncStatus(SOURCE))?.chunks ?? 0;
    return { chunks, seconds: wallMs / 1000, storeChunksPerSecond: chunks / (storeMs / 1000) };
  };
  // One pass over the corpus in two loops: an iterator without return(), so the first loop's break
  // leaves the rest for the second.
  const corpus = corpusPages(size, set);
  const pages: Iterable<CorpusPage> = { [Symbol.iterator]: () => ({ next: () => corpus.next() }) };
  for (const page of pages) {
    batch.push(page);
    if (batch.length < BATCH && done + batch.length < Math.min(INGEST_SIZE, size)) continue;
    await upsert();
    done += batch.length;
    batch = [];
    if (done >= Math.min(INGEST_SIZE, size)) break;
  }
  const ingested = await measured();
  started = performance.now();
  if (done < size) {
    await withoutSearchIndexes(
      engine,
      async () => {
        for (const page of pages) {
          batch.push(page);
          if (batch.length < BULK_BATCH && done + batch.length < size) continue;
          await bulkLoad(engine, embeddings, SOURCE, batch);
          done += batch.length;
          batch = [];
          if (done % 10_000 === 0) process.stderr.write(`  ${label}: ${done} pages\n`);
        }
      },
      () => openKnowledgeStore({ engine, embeddings, embeddingsModel: STATIC_EMBEDDINGS_MODEL }),
    );
  }
  const bulkSeconds = (performance.now() - started) / 1000;
  const chunks = (await store.syncStatus(SOURCE))?.chunks ?? 0;
  return {
    chunks,
    ingestedChunks: ingested.chunks,
    ingestSeconds: ingested.seconds,
    storeChunksPerSecond: ingested.storeChunksPerSecond,
    bulkSeconds: chunks > ingested.chunks ? bulkSeconds : 0,
  };
}

async function measureQueries(store: KnowledgeStore, questions: KnownQuestion[]) {
  const latency = {} as EngineResult["latency"];
  const recall = {} as EngineResult["recall"];
  for (const mode of MODES) {
    const found = { literal: 0, paraphrase: 0 };
    for (const { question, answer, wording } of questions) {
      const hits = await store.search({ text: question, principal: PRINCIPAL, k: 5, mode });
      if (hits.some((hit) => hit.documentId === answer)) found[wording]++;
    }
    const samples: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const { question } of questions) {
        const started = performance.now();
        await store.search({ text: question, principal: PRINCIPAL, k: 5, mode });
        samples.push(performance.now() - started);
      }
    }
    samples.sort((a, b) => a - b);
    latency[mode] = { p50: percentile(samples, 50), p95: percentile(samples, 95) };
    const each = questions.length / 2;
    recall[mode] = {
      literal: found.literal / each,
      paraphrase: found.paraphrase / each,
      all: (found.literal + found.paraphrase) / questions.length,
    };
  }
  return { latency, recall };
}

async function openEngine(name: string): Promise<{ engine: Engine; done(): Promise<void> }> {
  if (name === "pglite") {
    const dir = await mkdtemp(join(tmpdir(), "bench-knowledge-"));
    return { engine: await pgliteEngine(dir), done: () => rm(dir, { recursive: true, force: true }) };
  }
  if (name === "postgres") {
    const postgres: TestPostgres = await startPostgres({ pgvector: true });
    try {
      const setup = postgresEngine(postgres.dsn);
      // Room for the HNSW build after the bulk load (pgvector slows down once its graph outgrows it).
      await setup.exec("ALTER SYSTEM SET maintenance_work_mem = '1GB'");
      await setup.exec("SELECT pg_reload_conf()");
      // A diagnostic: HNSW's search breadth (pgvector's default 40), to tell the index's misses from the model's.
      const efSearch = process.env.BENCH_KNOWLEDGE_HNSW_EF_SEARCH;
      if (efSearch) {
        await setup.exec(`ALTER DATABASE postgres SET hnsw.ef_search = ${Number.parseInt(efSearch, 10)}`);
      }
      await setup.close();
    } catch (error) {
      await postgres.stop();
      throw error;
    }
    const engine = postgresEngine(postgres.dsn);
    return { engine, done: () => postgres.stop() };
  }
  throw new Error(`BENCH_KNOWLEDGE_ENGINES names "${name}": use pglite, postgres or both, comma-separated.`);
}

const ms = (value: number) => (value < 10 ? value.toFixed(1) : value.toFixed(0));
const pct = (value: number) => `${Math.round(value * 100)}%`;

async function main(): Promise<void> {
  // The diagnostic run (BENCH_KNOWLEDGE_HNSW_EF_SEARCH) writes a section of its own.
  const efSearch = process.env.BENCH_KNOWLEDGE_HNSW_EF_SEARCH;
  const report = benchReport(
    new URL("README.md", import.meta.url),
    efSearch ? `knowledge-ef-search-${efSearch}` : "knowledge",
  );
  const questions = knownQuestions(readQuestionSet());
  const model = await startStaticEmbeddings();
  const env = { ...process.env, ...model.env };
  const settings = readEmbeddingsSettings(env);
  if (!settings) throw new Error("the embeddings settings did not parse");
  const embeddings = new RememberedEmbeddings(await createEmbeddings(settings, env));
  const results: EngineResult[] = [];
  try {
    for (const name of ENGINES) {
      const size = name === "pglite" ? PGLITE_SIZE : SIZE;
      process.stderr.write(`${name}: ingesting ${size} chunks ...\n`);
      const { engine, done } = await openEngine(name);
      try {
        const store = await openKnowledgeStore({
          engine,
          embeddings,
          embeddingsModel: STATIC_EMBEDDINGS_MODEL,
        });
        const ingested = await ingest(engine, store, embeddings, name, size);
        process.stderr.write(`${name}: querying ...\n`);
        results.push({ engine: name, ...ingested, ...(await measureQueries(store, questions)) });
        await store.close();
      } finally {
        await done();
      }
    }
  } finally {
    await model.stop();
  }

  const modelRate = embeddings.embedded / (embeddings.modelMs / 1000);
  report.print(
    `Corpus: up to ${SIZE.toLocaleString("en")} chunks (one generated page each; each engine's size below), ${questions.length} questions ` +
      `(${questions.length / 2} answers, each asked in the page's words and in other words). Embeddings: ` +
      `${STATIC_EMBEDDINGS_MODEL} (256 numbers a vector) at ${Math.round(modelRate)} chunks/s, counted apart.\n`,
  );
  report.print(
    "| engine | chunks queried | ingest (store) chunks/s, over | keyword p50 / p95 ms | hybrid p50 / p95 ms | vector p50 / p95 ms |",
  );
  report.print("|---|---:|---:|---:|---:|---:|");
  for (const r of results) {
    const l = (mode: Mode) => `${ms(r.latency[mode].p50)} / ${ms(r.latency[mode].p95)}`;
    report.print(
      `| ${r.engine} | ${r.chunks.toLocaleString("en")} | ${Math.round(r.storeChunksPerSecond)}, over ${r.ingestedChunks.toLocaleString("en")} | ${l("keyword")} | ${l("hybrid")} | ${l("vector")} |`,
    );
  }
  const bulk = results.filter((r) => r.bulkSeconds > 0);
  if (bulk.length > 0) {
    report.print(
      `\nPast the ingested part, loaded in bulk (bulk-load.ts; on PostgreSQL the search indexes built once after; embedding included): ${bulk
        .map(
          (r) =>
            `${r.engine} ${(r.chunks - r.ingestedChunks).toLocaleString("en")} chunks in ${r.bulkSeconds.toFixed(0)} s`,
        )
        .join(", ")}.`,
    );
  }
  report.print(
    "\nrecall@5 (the answer page among the first five hits): literal / paraphrased / all questions\n",
  );
  report.print("| engine | keyword | hybrid | vector |");
  report.print("|---|---:|---:|---:|");
  for (const r of results) {
    const c = (mode: Mode) =>
      `${pct(r.recall[mode].literal)} / ${pct(r.recall[mode].paraphrase)} / **${pct(r.recall[mode].all)}**`;
    report.print(`| ${r.engine} | ${c("keyword")} | ${c("hybrid")} | ${c("vector")} |`);
  }
  report.save();
}

await main();
