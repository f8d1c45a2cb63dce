// pnpm bench:conversation — what one long conversation costs each checkpoint saver. The Jira agent,
// served in-process over real A2A (zero-latency scripted LLM, fake Jira), answers BENCH_TURNS turns
// on one conversation; every turn runs one JQL search, so one tool result is stored per turn. Run
// side by side: the memory saver, upstream's MongoDBSaver and ours (getCheckpointer()), each in its
// own database. Printed per saver and length: bytes stored per collection, the final state's size,
// stored ÷ state, the largest document, and p50 turn latency over the first and last tenth of turns.
// MongoDB: MONGODB_URI if set, else the test MongoDB (mongo-java-server). A2A tasks and thread locks
// always go to MongoDB (beside the checkpoints for ours, to a database of their own for the others).
// Context summarizing is off (ENABLE_AUTO_COMPRESSION=false), so the final state holds every message,
// unless BENCH_CONTEXT_TOKENS=<n> turns it on as deployed (MAX_CONTEXT_TOKENS=<n>): then the model
// gets a bounded history and the agent's state is the summary plus the newest messages.
// Knobs: BENCH_TURNS (default 100,500), BENCH_SAVERS (default memory,upstream,ours),
// BENCH_UPSTREAM_MAX_TURNS (default 100: longer upstream runs are skipped with a projection),
// BENCH_CONTEXT_TOKENS (default: summarizing off).
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { type BaseCheckpointSaver, JsonPlusSerializer, MemorySaver } from "@langchain/langgraph-checkpoint";
import { MongoDBSaver } from "@langchain/langgraph-checkpoint-mongodb";
import { connectAgent } from "@switchboard/a2a-client";
import { jiraAgent } from "@switchboard/agent-jira/agent";
import { type RunningAgent, serveAgent } from "@switchboard/agent-runtime";
import { createLogger } from "@switchboard/common";
import { closeCheckpointer, getCheckpointer } from "@switchboard/utils";
import { startFakeJira } from "@switchboard-testing/fake-jira";
import {
  callTool,
  isSummaryRequest,
  replyFromToolResult,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
  summarizeMatches,
} from "@switchboard-testing/test-llm";
import { startTestMongo } from "@switchboard-testing/test-mongo";
import { type Db, MongoClient } from "mongodb";
import { benchReport } from "../src/index.js";

const output = benchReport(new URL("./README.md", import.meta.url), "conversation");

const SAVER_KINDS = ["memory", "upstream", "ours"] as const;
type SaverKind = (typeof SAVER_KINDS)[number];

const TURNS = (process.env.BENCH_TURNS ?? "100,500")
  .split(",")
  .map((value) => Number(value.trim()))
  .filter((value) => Number.isInteger(value) && value > 0);
const SAVERS = (process.env.BENCH_SAVERS ?? SAVER_KINDS.join(","))
  .split(",")
  .map((value) => value.trim())
  .filter((value) => value.length > 0) as SaverKind[];
for (const saver of SAVERS) {
  if (!SAVER_KINDS.includes(saver))
    throw new Error(`BENCH_SAVERS: unknown saver "${saver}" (${SAVER_KINDS})`);
}
/**
 * Upstream's saver stores the whole state at every step, so its bytes and its time grow with the
 * square of the length: 500 turns measured 3.1 GB and 7.5 min on mongo-java-server (BENCH_TURNS=500
 * BENCH_SAVERS=upstream BENCH_UPSTREAM_MAX_TURNS=500). By default longer runs than 100 turns are
 * skipped with a note projecting them from the longest run.
 */
const UPSTREAM_MAX_TURNS = Number(process.env.BENCH_UPSTREAM_MAX_TURNS ?? 100);
const CONTEXT_TOKENS = process.env.BENCH_CONTEXT_TOKENS
  ? Number(process.env.BENCH_CONTEXT_TOKENS)
  : undefined;
if (CONTEXT_TOKENS !== undefined && !(Number.isInteger(CONTEXT_TOKENS) && CONTEXT_TOKENS > 0))
  throw new Error(
    `BENCH_CONTEXT_TOKENS: a positive whole number of tokens, not ${process.env.BENCH_CONTEXT_TOKENS}`,
  );
/** The user's question, the model's search call, the search result, the model's answer. */
const MESSAGES_PER_TURN = 4;
const WARM_UP_TURNS = 20;
const TARGET_STORED_RATIO = 3;
const TARGET_LATENCY_RATIO = 1.3;
const AGENT = "jira";

const QUERIES = [
  "project = PLAT ORDER BY updated DESC",
  "project = OPS ORDER BY updated DESC",
  'assignee = "Bob Martins" ORDER BY key ASC',
  'project = PLAT AND status = "In Progress"',
  'text ~ "cluster" ORDER BY created DESC',
];

const script = rules(
  [
    // Only asked with BENCH_CONTEXT_TOKENS: the summary carries the issue keys seen so far.
    { test: isSummaryRequest, reply: summarizeMatches(/\b[A-Z]+-\d+\b/) },
    {
      lastUser: /^search: (.+)$/,
      reply: (_r, { match }) => callTool("search_issues", { jql: match?.[1] }),
    },
    { afterTool: "search_issues", reply: replyFromToolResult() },
  ],
  say("ok"),
);

/** One serializer measures every saver's final state, so the sizes compare. */
const serde = new JsonPlusSerializer();
const silent = createLogger({ level: "silent" });

interface CollectionSize {
  name: string;
  docs: number;
  bytes: number;
  largest: number;
}

interface SaverUnderTest {
  saver: BaseCheckpointSaver;
  /** The database the saver writes its checkpoints to (absent for memory). */
  dbName?: string;
  /** The database A2A tasks and thread locks go to. */
  runtimeDbName: string;
  close(): Promise<void>;
}

interface RunResult {
  kind: SaverKind;
  turns: number;
  collections: CollectionSize[];
  sizeMethod: string;
  stateBytes: number;
  messages: number;
  firstP50: number;
  lastP50: number;
  /** The model request answering the last turn: the whole history goes to the model every time. */
  lastRequest: { messages: number; bytes: number };
  seconds: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(0.5 * sorted.length))] ?? 0;
};

/** The saver's database and the one for A2A tasks and locks (unused for ours, which shares its own). */
function databaseNames(kind: SaverKind, prefix: string): [string, string] {
  return [`${prefix}_${kind}`, `${prefix}_${kind}_runtime`];
}

async function createSaver(kind: SaverKind, uri: string, prefix: string): Promise<SaverUnderTest> {
  const [dbName, runtimeDbName] = databaseNames(kind, prefix);
  switch (kind) {
    case "memory":
      return { saver: new MemorySaver(), runtimeDbName, close: async () => undefined };
    case "upstream": {
      // As getCheckpointer() builds its own: one MongoClient, per-agent collection names, setup().
      const client = new MongoClient(uri, { appName: `switchboard-bench-${AGENT}` });
      await client.connect();
      const saver = new MongoDBSaver({
        client,
        dbName,
        checkpointCollectionName: `checkpoints_${AGENT}`,
        checkpointWritesCollectionName: `checkpoint_writes_${AGENT}`,
      });
      const failures = await saver.setup();
      if (failures.length > 0) throw failures[0];
      return { saver, dbName, runtimeDbName, close: () => client.close() };
    }
    case "ours": {
      await closeCheckpointer();
      const env = { MONGODB_URI: uri, LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: dbName };
      const saver = await getCheckpointer({ env, agentName: AGENT, logger: silent });
      // serveAgent shares this process-wide saver's database for tasks and locks.
      return { saver, dbName, runtimeDbName: dbName, close: closeCheckpointer };
    }
  }
}

/**
 * Sum of the BSON size of every document in the database's `checkpoint*` collections: `$bsonSize`
 * where the server has it (DocumentDB, MongoDB), else the raw BSON the server returns
 * (mongo-java-server has no `$bsonSize`); both are the documents' exact BSON sizes.
 */
async function mongoSizes(db: Db): Promise<{ collections: CollectionSize[]; method: string }> {
  const names = (await db.listCollections({}, { nameOnly: true }).toArray())
    .map((entry) => entry.name)
    .filter((name) => name.startsWith("checkpoint"))
    .sort();
  const collections: CollectionSize[] = [];
  let method = "$bsonSize";
  for (const name of names) {
    const collection = db.collection(name);
    try {
      const [row] = await collection
        .aggregate<{ docs: number; bytes: number; largest: number }>([
          {
            $group: {
              _id: null,
              docs: { $sum: 1 },
              bytes: { $sum: { $bsonSize: "$$ROOT" } },
              largest: { $max: { $bsonSize: "$$ROOT" } },
            },
          },
        ])
        .toArray();
      collections.push({ name, docs: row?.docs ?? 0, bytes: row?.bytes ?? 0, largest: row?.largest ?? 0 });
    } catch {
      method = "raw BSON length";
      const size: CollectionSize = { name, docs: 0, bytes: 0, largest: 0 };
      for await (const raw of collection.find({}, { raw: true, batchSize: 100 })) {
        const bytes = (raw as unknown as Uint8Array).byteLength;
        size.docs += 1;
        size.bytes += bytes;
        size.largest = Math.max(size.largest, bytes);
      }
      collections.push(size);
    }
  }
  return { collections, method };
}

/** What the memory saver holds: its serialized checkpoints (+ metadata) and pending writes. */
function memorySizes(saver: MemorySaver): CollectionSize[] {
  const storage: CollectionSize = { name: "storage (checkpoints)", docs: 0, bytes: 0, largest: 0 };
  for (const namespaces of Object.values(saver.storage)) {
    for (const checkpoints of Object.values(namespaces)) {
      for (const [checkpoint, metadata, parent] of Object.values(checkpoints)) {
        const bytes = checkpoint.byteLength + metadata.byteLength + (parent?.length ?? 0);
        storage.docs += 1;
        storage.bytes += bytes;
        storage.largest = Math.max(storage.largest, bytes);
      }
    }
  }
  const writes: CollectionSize = { name: "writes", docs: 0, bytes: 0, largest: 0 };
  for (const perCheckpoint of Object.values(saver.writes)) {
    for (const [taskId, channel, value, taskPath] of Object.values(perCheckpoint)) {
      const bytes = taskId.length + channel.length + value.byteLength + (taskPath?.length ?? 0);
      writes.docs += 1;
      writes.bytes += bytes;
      writes.largest = Math.max(writes.largest, bytes);
    }
  }
  return [storage, writes];
}

async function runConversation(
  kind: SaverKind,
  turns: number,
  setup: { uri: string; client: MongoClient; prefix: string; llm: ScriptedLlm; jira: JiraEnv },
): Promise<RunResult> {
  const started = performance.now();
  const dbPrefix = `${setup.prefix}_${turns}`;
  let under: SaverUnderTest | undefined;
  let agent: RunningAgent | undefined;
  try {
    under = await createSaver(kind, setup.uri, dbPrefix);
    agent = await serveAgent(jiraAgent, {
      env: agentEnv(setup.uri, under.runtimeDbName, setup.llm.url, setup.jira),
      logger: silent,
      checkpointer: under.saver,
    });
    const connection = await connectAgent(agent.url, { logger: silent });
    const contextId = randomUUID();
    const latencies: number[] = [];
    let lastRequest = { messages: 0, bytes: 0 };
    for (let turn = 0; turn < turns; turn++) {
      const jql = QUERIES[turn % QUERIES.length] ?? "";
      const start = performance.now();
      const result = await connection.send({ text: `search: ${jql}`, contextId });
      latencies.push(performance.now() - start);
      // The scripted LLM keeps every request it parsed: by turn 500 that would be gigabytes of heap.
      const last = setup.llm.requests.at(-1);
      if (turn === turns - 1 && last) {
        lastRequest = { messages: last.messages.length, bytes: Buffer.byteLength(JSON.stringify(last)) };
      }
      setup.llm.requests.length = 0;
      if (result.state !== "completed" || !result.text.includes("search_issues returned")) {
        throw new Error(`${kind}, turn ${turn + 1}: ${result.state}: ${result.text.slice(0, 300)}`);
      }
      if ((turn + 1) % 50 === 0) {
        process.stderr.write(
          `  ${kind} ${turn + 1}/${turns} turns, ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
        );
      }
    }

    const tuple = await under.saver.getTuple({ configurable: { thread_id: contextId, checkpoint_ns: "" } });
    if (!tuple) throw new Error(`${kind}: no checkpoint for the conversation`);
    const values = tuple.checkpoint.channel_values as { messages?: unknown[] };
    const messages = values.messages?.length ?? 0;
    const [, state] = await serde.dumpsTyped(tuple.checkpoint.channel_values);

    let collections: CollectionSize[];
    let sizeMethod: string;
    if (under.saver instanceof MemorySaver) {
      collections = memorySizes(under.saver);
      sizeMethod = "serialized bytes held";
    } else {
      ({ collections, method: sizeMethod } = await mongoSizes(setup.client.db(under.dbName)));
    }
    const tenth = Math.max(1, Math.floor(turns / 10));
    return {
      kind,
      turns,
      collections,
      sizeMethod,
      stateBytes: state.byteLength,
      messages,
      firstP50: median(latencies.slice(0, tenth)),
      lastP50: median(latencies.slice(-tenth)),
      lastRequest,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await agent?.close(); // closes the process-wide checkpointer too
    await under?.close();
    await closeCheckpointer();
    for (const name of databaseNames(kind, dbPrefix)) {
      await setup.client
        .db(name)
        .dropDatabase()
        .catch(() => undefined);
    }
  }
}

interface JiraEnv {
  url: string;
  email: string;
  token: string;
}

function agentEnv(uri: string, dbName: string, llmUrl: string, jira: JiraEnv): NodeJS.ProcessEnv {
  return {
    AGENT_NAME: AGENT,
    HOST: "127.0.0.1",
    PORT: "0",
    MONGODB_URI: uri,
    LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: dbName,
    LLM_PROVIDER: "openai",
    OPENAI_API_KEY: "sk-bench",
    OPENAI_BASE_URL: llmUrl,
    OPENAI_MODEL_NAME: "gpt-4o-mini",
    ATLASSIAN_API_URL: jira.url,
    ATLASSIAN_EMAIL: jira.email,
    ATLASSIAN_TOKEN: jira.token,
    // By default the whole conversation stays in the state: this measures the savers, not the summarizing.
    ...(CONTEXT_TOKENS === undefined
      ? { ENABLE_AUTO_COMPRESSION: "false" }
      : { ENABLE_AUTO_COMPRESSION: "true", MAX_CONTEXT_TOKENS: String(CONTEXT_TOKENS) }),
  };
}

const mb = (bytes: number) => (bytes / 1_000_000).toFixed(bytes < 10_000_000 ? 2 : 1);
const kb = (bytes: number) => (bytes / 1_000).toFixed(1);

function table(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  output.print(line(header));
  output.print(line(widths.map((w) => "-".repeat(w))));
  for (const row of rows) output.print(line(row));
}

function report(results: RunResult[], notes: string[], mongoLabel: string): void {
  const context =
    CONTEXT_TOKENS === undefined
      ? "summarizing off"
      : `summarizing on at MAX_CONTEXT_TOKENS=${CONTEXT_TOKENS}: the final state is the summary and the newest messages`;
  output.print(
    `\nOne conversation per saver and length (zero-latency scripted LLM, fake Jira, one JQL search per turn, ` +
      `${MESSAGES_PER_TURN} messages per turn, ${context}); MongoDB: ${mongoLabel}\n`,
  );
  table(
    [
      "saver",
      "turns",
      "messages",
      "stored MB",
      "final state KB",
      `stored ÷ state (≤ ${TARGET_STORED_RATIO})`,
      "largest doc KB",
      "p50 first tenth ms",
      "p50 last tenth ms",
      `last ÷ first (≤ ${TARGET_LATENCY_RATIO})`,
      "last model request KB",
      "run s",
    ],
    results.map((r) => {
      const stored = r.collections.reduce((sum, c) => sum + c.bytes, 0);
      const largest = Math.max(0, ...r.collections.map((c) => c.largest));
      const storedRatio = stored / r.stateBytes;
      const latencyRatio = r.lastP50 / r.firstP50;
      return [
        r.kind,
        String(r.turns),
        `${r.messages}${CONTEXT_TOKENS !== undefined || r.messages === r.turns * MESSAGES_PER_TURN ? "" : ` (expected ${r.turns * MESSAGES_PER_TURN})`}`,
        mb(stored),
        kb(r.stateBytes),
        // Summarizing shrinks the state but never the stored history: the target is for whole histories.
        `${storedRatio.toFixed(2)} ${CONTEXT_TOKENS !== undefined ? "(summarized state)" : storedRatio <= TARGET_STORED_RATIO ? "ok" : "over"}`,
        kb(largest),
        r.firstP50.toFixed(1),
        r.lastP50.toFixed(1),
        `${latencyRatio.toFixed(2)} ${latencyRatio <= TARGET_LATENCY_RATIO ? "ok" : "over"}`,
        `${kb(r.lastRequest.bytes)} (${r.lastRequest.messages} msgs)`,
        r.seconds.toFixed(0),
      ];
    }),
  );
  output.print("\nBytes per collection\n");
  table(
    ["saver", "turns", "collection", "documents", "bytes", "largest doc bytes", "measured as"],
    results.flatMap((r) =>
      r.collections.map((c) => [
        r.kind,
        String(r.turns),
        c.name,
        String(c.docs),
        c.bytes.toLocaleString("en-US"),
        c.largest.toLocaleString("en-US"),
        r.sizeMethod,
      ]),
    ),
  );
  output.print(
    `\nTargets: stored ÷ final-state bytes ≤ ${TARGET_STORED_RATIO} at every length; p50 of the last tenth of ` +
      `turns ≤ ${TARGET_LATENCY_RATIO} × p50 of the first tenth. Final state: the latest checkpoint's channel ` +
      "values (getTuple), serialized by one JsonPlusSerializer for every saver. Memory: the bytes of the " +
      "serialized checkpoints, metadata and writes it holds (no BSON). Turn latency also holds work that " +
      "grows with the history whatever the saver: both model requests carry the whole conversation (last " +
      "model request KB), built by ChatOpenAI and parsed by the scripted LLM, both in this process.",
  );
  for (const note of notes) output.print(`\n${note}`);
  // Summarizing replaces older messages in the state, so only a whole history has a count to check.
  const wrong = results.filter(
    (r) => CONTEXT_TOKENS === undefined && r.messages !== r.turns * MESSAGES_PER_TURN,
  );
  if (wrong.length > 0) {
    throw new Error(
      `final state has the wrong number of messages: ${wrong.map((r) => `${r.kind} at ${r.turns} turns: ${r.messages}`).join(", ")}`,
    );
  }
}

function upstreamSkipped(turns: number, results: RunResult[]): string {
  const measured = results.filter((r) => r.kind === "upstream").at(-1);
  let projection = "";
  if (measured) {
    const scale = (turns / measured.turns) ** 2;
    const stored = measured.collections.reduce((sum, c) => sum + c.bytes, 0) * scale;
    projection =
      `; projected from its ${measured.turns}-turn run (× (length ratio)²): ~${(stored / 1e9).toFixed(1)} GB ` +
      `stored, ~${((measured.seconds * scale) / 60).toFixed(0)} min`;
  }
  return (
    `upstream at ${turns} turns: skipped (over BENCH_UPSTREAM_MAX_TURNS=${UPSTREAM_MAX_TURNS}: it stores the ` +
    `whole state at every step, so bytes and time grow with the square of the length)${projection}.`
  );
}

async function main() {
  const external = process.env.MONGODB_URI;
  const mongo = external ? undefined : await startTestMongo();
  const uri = external ?? mongo?.uri ?? "";
  const [llm, jira, client] = await Promise.all([
    startScriptedLlm({ script }),
    startFakeJira(),
    MongoClient.connect(uri),
  ]);
  const prefix = `bench_conv_${Date.now()}`;
  const setup = { uri, client, prefix, llm, jira };
  const results: RunResult[] = [];
  const notes: string[] = [];
  try {
    // Warm up the process (JIT, connections) on a throwaway conversation before anything is measured.
    process.stderr.write(`warm-up: ${WARM_UP_TURNS} turns on the memory saver\n`);
    await runConversation("memory", WARM_UP_TURNS, { ...setup, prefix: `${prefix}_warmup` });
    for (const turns of TURNS) {
      for (const kind of SAVERS) {
        if (kind === "upstream" && turns > UPSTREAM_MAX_TURNS) {
          notes.push(upstreamSkipped(turns, results));
          continue;
        }
        process.stderr.write(`${kind}: ${turns} turns\n`);
        const result = await runConversation(kind, turns, setup);
        process.stderr.write(`${kind}: ${turns} turns done in ${result.seconds.toFixed(1)} s\n`);
        results.push(result);
      }
    }
  } finally {
    await Promise.all([llm.close(), jira.close()]);
    await client.close();
    await mongo?.stop();
  }
  report(results, notes, external ? "MONGODB_URI" : "test MongoDB (mongo-java-server)");
}

await main();
output.save();
