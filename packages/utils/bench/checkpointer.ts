// pnpm bench:checkpointer: put / getTuple / list latency (p50, p95) for the memory saver and the
// MongoDB saver from getCheckpointer(), with 1k and 100k checkpoints already stored.
// MongoDB: MONGODB_URI if set, else the test MongoDB (mongo-java-server, in-memory, loopback).
import { performance } from "node:perf_hooks";
import {
  type BaseCheckpointSaver,
  type Checkpoint,
  emptyCheckpoint,
  uuid6,
} from "@langchain/langgraph-checkpoint";
import { startTestMongo } from "@switchboard/test-mongo/server";
import { type Db, MongoClient } from "mongodb";
import { closeCheckpointer, getCheckpointer } from "../src/checkpointer.js";
import { createLogger } from "../src/logger.js";

const SIZES = (process.env.BENCH_SIZES ?? "1000,100000").split(",").map(Number);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const CHECKPOINTS_PER_THREAD = 50;
const PREFILL_CONCURRENCY = 64;
const AGENT = "bench";

/** A checkpoint the size of a short conversation: ten messages of a few hundred bytes. */
function conversationCheckpoint(turn: number): Checkpoint {
  const checkpoint = emptyCheckpoint();
  checkpoint.id = uuid6(turn);
  checkpoint.channel_values = {
    messages: Array.from({ length: 10 }, (_, i) => ({
      role: i % 2 ? "assistant" : "user",
      content: `message ${i} of turn ${turn}: ${"lorem ipsum ".repeat(20)}`,
    })),
  };
  checkpoint.channel_versions = { messages: turn };
  return checkpoint;
}

async function put(saver: BaseCheckpointSaver, thread: string, turn: number) {
  const config = { configurable: { thread_id: thread, checkpoint_ns: "" } };
  return saver.put(config, conversationCheckpoint(turn), { source: "loop", step: turn, parents: {} }, {});
}

async function prefillWithPut(saver: BaseCheckpointSaver, from: number, to: number) {
  let next = from;
  const worker = async () => {
    for (let i = next++; i < to; i = next++) {
      await put(saver, `thread-${Math.floor(i / CHECKPOINTS_PER_THREAD)}`, i % CHECKPOINTS_PER_THREAD);
    }
  };
  await Promise.all(Array.from({ length: PREFILL_CONCURRENCY }, worker));
}

/** Bulk-inserts copies of a document the saver wrote itself: same shape, far faster than 100k puts. */
async function prefillRaw(saver: BaseCheckpointSaver, db: Db, from: number, to: number) {
  await put(saver, "template", 0);
  const collection = db.collection(`checkpoints_${AGENT}`);
  const template = await collection.findOne({ thread_id: "template" }, { projection: { _id: 0 } });
  if (!template) throw new Error("the saver did not write the template checkpoint");
  for (let start = from; start < to; start += 5_000) {
    const docs = [];
    for (let i = start; i < Math.min(to, start + 5_000); i++) {
      const thread = `thread-${Math.floor(i / CHECKPOINTS_PER_THREAD)}`;
      docs.push({ ...template, thread_id: thread, checkpoint_id: uuid6(i % CHECKPOINTS_PER_THREAD) });
    }
    await collection.insertMany(docs);
  }
}

async function time(run: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return samples.sort((a, b) => a - b);
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

async function measure(saver: BaseCheckpointSaver) {
  const thread = "thread-0";
  let turn = 1_000;
  const config = { configurable: { thread_id: thread, checkpoint_ns: "" } };
  return {
    put: await time(() => put(saver, `bench-${turn}`, turn++)),
    getTuple: await time(() => saver.getTuple(config)),
    "list (limit 10)": await time(async () => {
      for await (const _ of saver.list(config, { limit: 10 })) {
        // drain
      }
    }),
  };
}

async function main() {
  const external = process.env.MONGODB_URI;
  const mongo = external ? undefined : await startTestMongo();
  const uri = external ?? mongo?.uri ?? "";
  const logger = createLogger({ level: "silent" });
  const rows: string[][] = [];
  const dbName = `bench_${Date.now()}`;
  const client = await MongoClient.connect(uri);

  for (const backend of ["memory", "mongodb"] as const) {
    const env =
      backend === "memory" ? {} : { MONGODB_URI: uri, LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: dbName };
    const saver = await getCheckpointer({ agentName: AGENT, env, logger });
    let stored = 0;
    for (const size of SIZES) {
      const started = performance.now();
      if (backend === "memory") await prefillWithPut(saver, stored, size);
      else await prefillRaw(saver, client.db(dbName), stored, size);
      stored = size;
      process.stderr.write(
        `${backend}: ${size} checkpoints stored in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
      );
      for (const [op, samples] of Object.entries(await measure(saver))) {
        rows.push([
          backend,
          size.toLocaleString("en-US"),
          op,
          quantile(samples, 0.5).toFixed(3),
          quantile(samples, 0.95).toFixed(3),
        ]);
      }
    }
    await closeCheckpointer();
  }

  await client
    .db(dbName)
    .dropDatabase()
    .catch(() => undefined);
  await client.close();
  await mongo?.stop();

  const header = ["backend", "checkpoints stored", "operation", "p50 ms", "p95 ms"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  console.log(
    `\n${SAMPLES} samples per operation; MongoDB: ${external ? "MONGODB_URI" : "test MongoDB (mongo-java-server)"}\n`,
  );
  console.log(line(header));
  console.log(line(widths.map((w) => "-".repeat(w))));
  for (const row of rows) console.log(line(row));
}

await main();
