// `pnpm bench:conversations` (pnpm --filter @switchboard-testing/benches bench:conversations): how long
// a caller's conversation list takes (GET /conversations, which the web chat asks for after every
// turn) as their tasks grow, read task by task through the A2A TaskStore interface (the in-memory
// store's way) against grouped in MongoDB (MongoTaskStore.conversationsOf), on the same tasks.
// Each task is a 20-word message, a progress line and a 150-word answer; ten tasks a conversation.
// MONGODB_URI: the MongoDB to use (else the test MongoDB). Prints a table.
import { performance } from "node:perf_hooks";
import { Task } from "@a2a-js/sdk";
import { ServerCallContext, type TaskStore, type User } from "@a2a-js/sdk/server";
import { startTestMongo } from "@switchboard-testing/test-mongo";
import { MongoClient } from "mongodb";
import { listConversations } from "../../../packages/agent-runtime/src/conversations/history.js";
import { MongoTaskStore } from "../../../packages/agent-runtime/src/tasks/mongo-task-store.js";
import { benchReport } from "../src/index.js";

const report = benchReport(new URL("./README.md", import.meta.url), "conversations");

const SIZES = [20, 200, 2000];
const ROUNDS = 7;

const words = (count: number) => Array.from({ length: count }, (_, i) => `word${i}`).join(" ");

function task(i: number, conversations: number): Task {
  return Task.fromJSON({
    id: `task-${i}`,
    contextId: `conversation-${i % conversations}`,
    status: { state: "TASK_STATE_COMPLETED", timestamp: new Date(Date.now() + i).toISOString() },
    history: [
      { messageId: `user-${i}`, role: "ROLE_USER", parts: [{ text: words(20) }] },
      { messageId: `agent-${i}`, role: "ROLE_AGENT", parts: [{ text: "Asking the jira agent" }] },
    ],
    artifacts: [{ artifactId: "answer", parts: [{ text: words(150) }] }],
  });
}

/** The median of ROUNDS lists, in ms. */
async function listTime(tasks: TaskStore, user: User): Promise<number> {
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    await listConversations(tasks, user);
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)] ?? 0;
}

const mongo = process.env.MONGODB_URI ? undefined : await startTestMongo();
const client = await MongoClient.connect(process.env.MONGODB_URI ?? mongo?.uri ?? "");
const db = client.db(`bench_conversations_${Date.now()}`);
try {
  const grouped = await MongoTaskStore.create(db, "bench");
  // The same store seen only as a TaskStore: listed page by page, grouped here.
  const taskByTask: TaskStore = {
    save: (task, context) => grouped.save(task, context),
    load: (taskId, context) => grouped.load(taskId, context),
    list: (params, context) => grouped.list(params, context),
  };
  report.print("| tasks | conversations | read task by task, ms p50 | grouped in MongoDB, ms p50 | ratio |");
  report.print("| ---: | ---: | ---: | ---: | ---: |");
  for (const size of SIZES) {
    const user: User = { isAuthenticated: true, userName: `caller-${size}` };
    const context = new ServerCallContext({ user });
    const conversations = size / 10;
    for (let i = 0; i < size; i++) await grouped.save(task(i, conversations), context);
    // Each way twice, alternating, the better median kept: a slow spell lands on both alike.
    const plain = Math.min(await listTime(taskByTask, user), await listTime(taskByTask, user));
    const inMongo = Math.min(await listTime(grouped, user), await listTime(grouped, user));
    report.print(
      `| ${size} | ${conversations} | ${plain.toFixed(1)} | ${inMongo.toFixed(1)} | ${(plain / inMongo).toFixed(1)}× |`,
    );
  }
} finally {
  await db.dropDatabase();
  await client.close();
  await mongo?.stop();
}
report.save();
