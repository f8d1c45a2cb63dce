// pnpm bench:memory — what long-term memory costs a turn. One small agent served four times in this
// process on the same MongoDB and zero-latency scripted LLM: memory off (LANGGRAPH_STORE_TYPE=none),
// and on for a user with 10, 1,000 and 10,000 memories. BENCH_SAMPLES turns each (a new conversation
// every turn, as a user starting a day's work), interleaved; p50/p95 of the whole turn as the caller
// sees it. Then recall alone (the MemoryBook the agent uses): the first read of a user's memories
// (cold) and a later turn's (the store's revision unchanged, warm). MongoDB: MONGODB_URI if set
// (DocumentDB for numbers worth quoting: real indexes), else the test MongoDB (mongo-java-server,
// which scans instead of using indexes).
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { connectAgent } from "@switchboard/a2a-client";
import { createLogger } from "@switchboard/common";
import { openStore } from "@switchboard/utils";
import { rules, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { startTestMongo } from "@switchboard-testing/test-mongo";
import { SignJWT } from "jose";
import { MongoClient } from "mongodb";
import { z } from "zod";
import { MemoryBook } from "../../../packages/agent-runtime/src/memory/memory-book.js";
import { type RunningAgent, serveAgent } from "../../../packages/agent-runtime/src/serve.js";
import { defineTool } from "../../../packages/agent-runtime/src/tools/define-tool.js";
import { benchReport } from "../src/index.js";

const report = benchReport(new URL("./README.md", import.meta.url), "memory");

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 100);
const RECALLS = Number(process.env.BENCH_RECALLS ?? 50);
const SIZES = [10, 1_000, 10_000];
const TARGET_OVERHEAD = 0.1;
const SECRET = "bench-memory-secret-of-at-least-32-characters";
const silent = createLogger({ level: "silent" });
const owner = createHash("sha256").update("alice").digest("hex").slice(0, 16);

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))] ?? 0;
const row = (cells: string[]) => `| ${cells.join(" | ")} |`;

/** `count` memories as MongoDBStore writes them (inserted at once: seeding is not what is measured). */
function memories(count: number) {
  const now = new Date();
  return Array.from({ length: count }, (_, i) => ({
    namespace: ["memories", owner],
    namespaceStr: `memories/${owner}`,
    key: `m${i}`,
    value: {
      text: `Service svc-${i} is owned by team-${i % 50}; its runbook is in the ops-${i % 7} space`,
      topic: `svc-${i}`,
      source: "user",
      usedAt: now.getTime() - i * 1_000,
    },
    createdAt: now,
    updatedAt: now,
  }));
}

const benchAgent = {
  name: "bench",
  title: "Bench",
  description: "An agent for the memory benchmark.",
  systemPrompt: "You answer briefly.",
  skills: [],
  tools: () => [
    defineTool({ name: "noop", description: "Does nothing", schema: z.object({}), run: () => "done" }),
  ],
};

async function main(): Promise<void> {
  const mongo = process.env.MONGODB_URI ? undefined : await startTestMongo();
  const uri = process.env.MONGODB_URI ?? mongo?.uri ?? "";
  const client = await MongoClient.connect(uri);
  const llm = await startScriptedLlm({ script: rules([], say("ok")) });
  const prefix = `bench_memory_${Date.now()}`;
  const variants: Array<[string, number | undefined]> = [
    ["memory off", undefined],
    ...SIZES.map((n) => [`${n.toLocaleString("en")} memories`, n] as [string, number]),
  ];
  const agents: Record<string, RunningAgent> = {};
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: "HS256" })
    .setIssuer("switchboard-test")
    .setAudience("switchboard")
    .setIssuedAt()
    .setSubject("alice")
    .setExpirationTime("1h")
    .sign(new TextEncoder().encode(SECRET));
  try {
    for (const [name, count] of variants) {
      const db = `${prefix}_${count ?? "off"}`;
      if (count) {
        // Indexes first, as the agent makes them; then the user's memories.
        const handle = await openStore({
          env: { MONGODB_URI: uri, LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: db },
          agentName: "bench",
          logger: silent,
        });
        await handle.close();
        const docs = memories(count);
        // In chunks: one insert of 10,000 can pass a loaded DocumentDB's command timeout.
        for (let i = 0; i < docs.length; i += 1_000) {
          await client
            .db(db)
            .collection("store_bench")
            .insertMany(docs.slice(i, i + 1_000));
        }
      }
      agents[name] = await serveAgent(benchAgent, {
        env: {
          PORT: "0",
          HOST: "127.0.0.1",
          AGENT_NAME: "bench",
          MONGODB_URI: uri,
          LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: db,
          AUTH_MODE: "jwt",
          AUTH_JWT_SECRET: SECRET,
          AUDIT_HMAC_KEY: randomBytes(32).toString("hex"),
          AUTH_ISSUER: "switchboard-test",
          AUTH_AUDIENCE: "switchboard",
          MEMORY_MAX_PER_USER: "20000",
          ...(count ? {} : { LANGGRAPH_STORE_TYPE: "none" }),
          ...llm.env,
        },
        logger: silent,
      });
    }
    const connections = Object.fromEntries(
      await Promise.all(
        Object.entries(agents).map(
          async ([name, agent]) => [name, await connectAgent(agent.url, { token, logger: silent })] as const,
        ),
      ),
    );
    const times: Record<string, number[]> = Object.fromEntries(variants.map(([name]) => [name, []]));
    const turn = async (name: string) => {
      const start = performance.now();
      const result = await connections[name]?.send({
        text: "who owns svc-7 and where is its runbook?",
        contextId: randomUUID(),
      });
      if (result?.state !== "completed")
        throw new Error(`${name}: turn ended ${result?.state}: ${result?.text}`);
      return performance.now() - start;
    };
    for (const [name] of variants) for (let i = 0; i < 5; i++) await turn(name); // warm-up
    for (let i = 0; i < SAMPLES; i++) for (const [name] of variants) times[name]?.push(await turn(name));

    const off = quantile(times["memory off"] ?? [], 0.5);
    report.print(
      `\nA turn (new conversation, zero-latency scripted LLM), ${SAMPLES} each, interleaved; MongoDB: ${process.env.MONGODB_URI ? "MONGODB_URI" : "mongo-java-server"}\n`,
    );
    report.print(
      row(["memory", "p50 ms", "p95 ms", "p50 vs off", `target ≤ ${TARGET_OVERHEAD * 100} % at 1,000`]),
    );
    report.print(row(["---", "---", "---", "---", "---"]));
    for (const [name, count] of variants) {
      const p50 = quantile(times[name] ?? [], 0.5);
      const overhead = (p50 - off) / off;
      const verdict = count === 1_000 ? (overhead <= TARGET_OVERHEAD ? "met" : "MISSED") : "";
      report.print(
        row([
          name,
          p50.toFixed(1),
          quantile(times[name] ?? [], 0.95).toFixed(1),
          count ? `${overhead >= 0 ? "+" : ""}${(overhead * 100).toFixed(1)} %` : "",
          verdict,
        ]),
      );
    }

    report.print(
      `\nRecall alone (MemoryBook.recall, ${RECALLS} each): cold = the user's memories read from the store, warm = revision unchanged\n`,
    );
    report.print(row(["memories", "cold p50 ms", "cold p95 ms", "warm p50 ms", "warm p95 ms"]));
    report.print(row(["---", "---", "---", "---", "---"]));
    for (const count of SIZES) {
      const handle = await openStore({
        env: { MONGODB_URI: uri, LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: `${prefix}_${count}` },
        agentName: "bench",
        logger: silent,
      });
      const store = handle.store;
      if (!store) throw new Error("no store");
      const cold: number[] = [];
      const warm: number[] = [];
      for (let i = 0; i < RECALLS; i++) {
        // A new book each time has nothing read yet: cold.
        const fresh = new MemoryBook({
          store,
          revision: handle.revision,
          maxPerUser: 20_000,
          logger: silent,
        });
        let start = performance.now();
        await fresh.recall(owner, "who owns svc-7?", 2_000);
        cold.push(performance.now() - start);
        // The relevant memories are marked used after the recall, off its path; then the next turn's.
        await new Promise((resolve) => setTimeout(resolve, 300));
        start = performance.now();
        await fresh.recall(owner, "where is the runbook of svc-9?", 2_000);
        warm.push(performance.now() - start);
      }
      report.print(
        row([
          count.toLocaleString("en"),
          ...[cold, warm].flatMap((values) => [
            quantile(values, 0.5).toFixed(1),
            quantile(values, 0.95).toFixed(1),
          ]),
        ]),
      );
      await handle.close();
    }
  } finally {
    await Promise.all(Object.values(agents).map((agent) => agent.close()));
    for (const [, count] of variants)
      await client
        .db(`${prefix}_${count ?? "off"}`)
        .dropDatabase()
        .catch(() => undefined);
    await client.close();
    await llm.close();
    await mongo?.stop();
  }
}

await main();
report.save();
process.exit(0);
