import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { TaskState } from "@a2a-js/sdk";
import { type ScriptedLlm, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import fc from "fast-check";
import { type Db, MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { RunningAgent } from "../src/serve.js";
import { serveNotesAgent } from "./notes-agent.js";

// Thousands of generated requests, mostly invalid, against one agent: it must answer every one
// without a 5xx, keep serving, keep its memory bounded, and store tasks and checkpoints only for
// the requests it accepted.

const SEED = 20_261_121;
const RUNS = 3_000;
const CONCURRENCY = 8;
const BATCH = 250;
/** Stop generating past this; the deterministic prefix that ran is reported. */
const BUDGET_MS = 150_000;
const MAX_BODY_BYTES = 64 * 1024;

interface FuzzRequest {
  family: string;
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** A well-formed message/send that must complete. */
  valid?: boolean;
}

interface Outcome {
  request: FuzzRequest;
  status: number;
  text: string;
  rpcCode?: number;
  tasks: Array<{ id: string; contextId: string }>;
}

// ---------------------------------------------------------------- generators

const LEGACY_METHODS = [
  "message/send",
  "message/stream",
  "tasks/get",
  "tasks/cancel",
  "tasks/resubscribe",
  "tasks/pushNotificationConfig/set",
  "tasks/pushNotificationConfig/get",
  "agent/getAuthenticatedExtendedCard",
];
const V1_METHODS = [
  "SendMessage",
  "SendStreamingMessage",
  "GetTask",
  "ListTasks",
  "CancelTask",
  "SubscribeToTask",
  "GetExtendedAgentCard",
  "CreateTaskPushNotificationConfig",
];
const REST_POST_PATHS = [
  "/rest/message:send",
  "/rest/message:stream",
  "/rest/v1/message:send",
  "/rest/v1/message:stream",
  "/rest/tenant-a/message:send",
  "/rest/tasks/t1:cancel",
  "/rest/tasks/t1:subscribe",
  "/rest/tasks/t1/pushNotificationConfigs",
  "/rest/nothing-here",
];
const GET_PATHS = [
  "/health",
  "/ready",
  "/metrics",
  "/.well-known/agent-card.json",
  "/.well-known/agent.json",
  "/rest/tasks",
  "/rest/tasks?pageSize=0",
  "/rest/tasks?pageSize=abc&status=banana",
  "/rest/tasks?pageToken=%%%",
  "/rest/v1/card",
  "/rest/extendedAgentCard",
  "/rest/tasks/does-not-exist",
  "/rest/v1/tasks/does-not-exist",
  "/rest/tasks/x:subscribe",
  "/rest/tasks/%E0%A4%A",
  "/%",
  "/nope",
];

const printable = (max: number) => fc.stringMatching(new RegExp(`^[\\x20-\\x7e]{0,${max}}$`));
const anyString = fc.string({ unit: "binary", maxLength: 40 });
const anyJson = fc.jsonValue({ maxDepth: 4 });
const weird = fc.oneof(anyJson, anyString, fc.constantFrom({ $gt: "" }, { $where: "1" }, "$where", "a.b"));

const a2aVersion = fc.option(fc.oneof(fc.constantFrom("0.3", "1.0", "2.0", "", "1", "0.3.0"), printable(8)), {
  nil: undefined,
});
const contentType = fc.option(
  fc.constantFrom(
    "application/json",
    "application/json",
    "application/a2a+json",
    "application/json; charset=utf-8",
    "application/json; charset=latin1",
    "application/json; charset=utf-16",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "*/*",
    "",
  ),
  { nil: undefined },
);
const headers = fc
  .record({
    contentType,
    version: a2aVersion,
    encoding: fc.option(fc.constantFrom("identity", "gzip", "deflate", "br-unknown"), {
      freq: 30,
      nil: undefined,
    }),
    accept: fc.option(fc.constantFrom("text/event-stream", "application/json", "*/*"), { nil: undefined }),
  })
  .map(({ contentType, version, encoding, accept }) => {
    const h: Record<string, string> = {};
    if (contentType !== undefined) h["content-type"] = contentType;
    if (version !== undefined) h["A2A-Version"] = version;
    if (encoding !== undefined) h["content-encoding"] = encoding;
    if (accept !== undefined) h.accept = accept;
    return h;
  });

const safeContextId = fc.stringMatching(/^[a-z0-9]{10}$/).map((id) => `valid-${id}`);

const legacyMessage = (contextId: string, messageId: string) => ({
  kind: "message",
  role: "user",
  messageId,
  contextId,
  parts: [{ kind: "text", text: "hello" }],
});
const v1Message = (contextId: string, messageId: string) => ({
  role: "ROLE_USER",
  messageId,
  contextId,
  parts: [{ text: "hello" }],
});

/** A request the agent must accept and complete, on each binding and protocol version. */
const validSend: fc.Arbitrary<FuzzRequest> = fc
  .record({ contextId: safeContextId, messageId: fc.uuid(), binding: fc.constantFrom("v03", "v1", "rest") })
  .map(({ contextId, messageId, binding }) => {
    const json = { "content-type": "application/json" };
    if (binding === "v03") {
      const params = { message: legacyMessage(contextId, messageId), configuration: { blocking: true } };
      const body = JSON.stringify({ jsonrpc: "2.0", id: messageId, method: "message/send", params });
      return { family: "valid", method: "POST", path: "/", headers: json, body, valid: true };
    }
    if (binding === "v1") {
      const params = { message: v1Message(contextId, messageId) };
      const body = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "SendMessage", params });
      return {
        family: "valid",
        method: "POST",
        path: "/",
        headers: { ...json, "A2A-Version": "1.0" },
        body,
        valid: true,
      };
    }
    const body = JSON.stringify({ message: v1Message(contextId, messageId) });
    return { family: "valid", method: "POST", path: "/rest/message:send", headers: json, body, valid: true };
  });

/** A message/send with one or two fields replaced by something random. */
const mutatedSend: fc.Arbitrary<FuzzRequest> = fc
  .record({
    contextId: fc.oneof(safeContextId, anyString, weird),
    messageId: fc.oneof(fc.uuid(), weird),
    legacy: fc.boolean(),
    field: fc.constantFrom("role", "parts", "kind", "taskId", "metadata", "text", "extra", "none"),
    value: weird,
    configuration: fc.option(anyJson, { nil: undefined }),
    stream: fc.boolean(),
    headers,
  })
  .map(({ contextId, messageId, legacy, field, value, configuration, stream, headers }) => {
    const message: Record<string, unknown> = legacy
      ? legacyMessage(contextId as string, messageId as string)
      : v1Message(contextId as string, messageId as string);
    if (field === "text") message.parts = [{ kind: "text", text: value }];
    else if (field !== "none") message[field] = value;
    const method = legacy
      ? stream
        ? "message/stream"
        : "message/send"
      : stream
        ? "SendStreamingMessage"
        : "SendMessage";
    const params = configuration === undefined ? { message } : { message, configuration };
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });
    return { family: "mutated-send", method: "POST", path: "/", headers, body } satisfies FuzzRequest;
  });

/** A JSON-RPC envelope with every member optional and random. */
const envelope: fc.Arbitrary<FuzzRequest> = fc
  .record(
    {
      jsonrpc: fc.oneof(fc.constantFrom("2.0", "2.0", "1.0", "3"), anyJson),
      id: fc.oneof(fc.integer(), anyString, fc.constant(null), anyJson),
      method: fc.oneof(fc.constantFrom(...LEGACY_METHODS, ...V1_METHODS), anyString),
      params: fc.oneof(
        anyJson,
        fc.record({ id: weird, historyLength: fc.oneof(fc.integer(), weird) }, { requiredKeys: [] }),
        fc.record({ pageSize: fc.integer(), pageToken: anyString, contextId: weird }, { requiredKeys: [] }),
      ),
    },
    { requiredKeys: [] },
  )
  .chain((body) =>
    headers.map((h) => ({
      family: "envelope",
      method: "POST" as const,
      path: "/",
      headers: h,
      body: JSON.stringify(body),
    })),
  );

/** Bytes and strings that are not JSON at all, or JSON of the wrong kind. */
const garbage: fc.Arbitrary<FuzzRequest> = fc
  .record({
    body: fc.oneof(
      fc.string({ unit: "binary", maxLength: 300 }),
      fc.uint8Array({ maxLength: 300 }),
      anyJson.map((value) => JSON.stringify(value)),
      fc.constantFrom("", "{", "}", "[", "null", "true", '{"jsonrpc":"2.0"', "\u0000", "\ufeff{}"),
    ),
    path: fc.constantFrom("/", "/", "/rest/message:send", "/rest/v1/message:send"),
    headers,
  })
  .map(({ body, path, headers }) => ({ family: "garbage", method: "POST", path, headers, body }));

/** Deep nesting: plain arrays, or a deep value inside an otherwise valid message. */
const deep: fc.Arbitrary<FuzzRequest> = fc
  .record({
    depth: fc.integer({ min: 50, max: 20_000 }),
    where: fc.constantFrom("raw", "params", "metadata", "data"),
  })
  .map(({ depth, where }) => {
    const json = { "content-type": "application/json" };
    const nested = `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
    const body =
      where === "raw"
        ? `${"[".repeat(depth)}${"]".repeat(depth)}`
        : `{"jsonrpc":"2.0","id":1,"method":"message/send","params":${nested}}`;
    const path = "/";
    return { family: "deep", method: "POST", path, headers: json, body };
  });

/** Bodies over MAX_REQUEST_BYTES, and huge single strings just under it. */
const oversized: fc.Arbitrary<FuzzRequest> = fc
  .record({
    size: fc.integer({ min: 40 * 1024, max: 200 * 1024 }),
    path: fc.constantFrom("/", "/rest/message:send"),
  })
  .map(({ size, path }) => {
    const message = { ...v1Message(`big-${size}`, "m"), parts: [{ text: "x".repeat(size) }] };
    const body =
      path === "/"
        ? JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message } })
        : JSON.stringify({ message });
    return {
      family: "oversized",
      method: "POST",
      path,
      headers: { "content-type": "application/json", "A2A-Version": "1.0" },
      body,
    };
  });

const restPost: fc.Arbitrary<FuzzRequest> = fc
  .record({
    path: fc.oneof(
      fc.constantFrom(...REST_POST_PATHS),
      fc.webPath().map((p) => `/rest${p}`),
    ),
    body: fc.oneof(
      anyJson.map((v) => JSON.stringify(v)),
      fc
        .record({ message: fc.oneof(weird, fc.record({ role: weird, parts: weird, contextId: weird })) })
        .map((v) => JSON.stringify(v)),
      fc
        .record({ request: fc.record({ role: weird, content: weird, contextId: weird }) })
        .map((v) => JSON.stringify(v)),
    ),
    headers,
  })
  .map(({ path, body, headers }) => ({ family: "rest-post", method: "POST", path, headers, body }));

const get: fc.Arbitrary<FuzzRequest> = fc
  .record({
    path: fc.oneof(
      fc.constantFrom(...GET_PATHS),
      fc.webPath(),
      anyString.map((s) => `/rest/tasks/${encodeURIComponent(s)}`),
      fc.constantFrom("%zz", "%", "%E0%A4%A", "%C0%AF", "..%2F..%2Fetc").map((s) => `/rest/tasks/${s}`),
    ),
    version: a2aVersion,
  })
  .map(
    ({ path, version }): FuzzRequest => ({
      family: "get",
      method: "GET",
      path: path.startsWith("/") ? path : `/${path}`,
      headers: version === undefined ? {} : { "A2A-Version": version },
    }),
  );

const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(
  { arbitrary: validSend, weight: 7 },
  { arbitrary: mutatedSend, weight: 18 },
  { arbitrary: envelope, weight: 25 },
  { arbitrary: garbage, weight: 15 },
  { arbitrary: deep, weight: 4 },
  { arbitrary: oversized, weight: 3 },
  { arbitrary: restPost, weight: 14 },
  { arbitrary: get, weight: 14 },
);

/** Heap in use after a full collection, so growth means retained memory, not garbage. */
function heapAfterGcMb(): number {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

// ---------------------------------------------------------------- running

/** Tasks named in a response: v0.3 `result.kind=task`, v1 `result.task`, REST `task`, SSE events. */
function tasksIn(text: string, contentType: string): Array<{ id: string; contextId: string }> {
  const bodies = contentType.includes("text/event-stream")
    ? text
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5))
    : [text];
  const found: Array<{ id: string; contextId: string }> = [];
  for (const body of bodies) {
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(body);
    } catch {
      continue;
    }
    const result = (json?.result ?? json) as Record<string, unknown> | undefined;
    const task = (result?.kind === "task" ? result : result?.task) as
      | { id?: unknown; contextId?: unknown }
      | undefined;
    if (typeof task?.id === "string" && typeof task.contextId === "string")
      found.push({ id: task.id, contextId: task.contextId });
  }
  return found;
}

function contextIdOf(request: FuzzRequest): string | undefined {
  if (typeof request.body !== "string") return undefined;
  try {
    const json = JSON.parse(request.body);
    const message = json?.params?.message ?? json?.message ?? json?.request;
    return typeof message?.contextId === "string" ? message.contextId : undefined;
  } catch {
    return undefined;
  }
}

describe("fuzzing the A2A endpoints", () => {
  const dbName = uniqueDbName("fuzz");
  let llm: ScriptedLlm;
  let mongo: MongoClient;
  let db: Db;
  let agent: RunningAgent;

  beforeAll(async () => {
    llm = await startScriptedLlm({ script: () => say("noted") });
    mongo = await MongoClient.connect(testMongoUri());
    db = mongo.db(dbName);
    agent = await serveNotesAgent({ llm, dbName, env: { MAX_REQUEST_BYTES: String(MAX_BODY_BYTES) } });
  });
  afterAll(async () => {
    await agent?.close();
    await db?.dropDatabase();
    await mongo?.close();
    await llm?.close();
  });

  async function run(request: FuzzRequest): Promise<Outcome> {
    const response = await fetch(`${agent.url}${request.path}`, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    let rpcCode: number | undefined;
    try {
      const code = JSON.parse(text)?.error?.code;
      if (typeof code === "number" && code < 0) rpcCode = code;
    } catch {
      // not JSON: counted by status only
    }
    const accepted = response.ok ? tasksIn(text, response.headers.get("content-type") ?? "") : [];
    return { request, status: response.status, text, rpcCode, tasks: accepted };
  }

  it(`answers ${RUNS} generated requests without crashing, leaking, or storing rejected input`, async () => {
    const requests = fc.sample(fuzzRequest, { seed: SEED, numRuns: RUNS });
    const outcomes: Outcome[] = [];
    const failures: string[] = [];
    const started = Date.now();
    const rssBefore = process.memoryUsage().rss;
    const heapBefore = heapAfterGcMb();
    // The SDK prints every refused A2A-Version and pre-stream error with console.error.
    const sdkConsoleErrors = vi.spyOn(console, "error").mockImplementation(() => undefined);

    let next = 0;
    const worker = async (end: number) => {
      while (next < end) {
        const request = requests[next++] as FuzzRequest;
        try {
          outcomes.push(await run(request));
        } catch (error) {
          failures.push(`${request.method} ${request.path} (${request.family}): no answer: ${String(error)}`);
        }
      }
    };
    for (let end = BATCH; next < requests.length && Date.now() - started < BUDGET_MS; end += BATCH) {
      await Promise.all(Array.from({ length: CONCURRENCY }, () => worker(Math.min(end, requests.length))));
      const health = await fetch(`${agent.url}/health`);
      expect(health.status, `/health after ${next} requests`).toBe(200);
    }
    const elapsedMs = Date.now() - started;

    const acceptedTasks = new Map<string, string>();
    for (const outcome of outcomes)
      for (const task of outcome.tasks) acceptedTasks.set(task.id, task.contextId);
    // Non-blocking sends (a configuration without `blocking`) finish in the background.
    const unfinished = {
      taskId: { $in: [...acceptedTasks.keys()] },
      state: { $in: [TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING] },
    };
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && (await db.collection("tasks_notes").countDocuments(unfinished)) > 0) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(
      await db.collection("tasks_notes").countDocuments(unfinished),
      "accepted tasks still running",
    ).toBe(0);
    const originOf = (contextId: string) => outcomes.find((o) => contextIdOf(o.request) === contextId);
    const rssGrowthMb = (process.memoryUsage().rss - rssBefore) / 1024 / 1024;
    const heapGrowthMb = heapAfterGcMb() - heapBefore;
    const sdkErrorLines = sdkConsoleErrors.mock.calls.length;
    sdkConsoleErrors.mockRestore();

    const acceptedContexts = new Set(acceptedTasks.values());
    const storedTasks = await db
      .collection("tasks_notes")
      .find({}, { projection: { taskId: 1, contextId: 1, state: 1 } })
      .toArray();
    const storedTaskIds = storedTasks.map((task) => task.taskId as string);
    // Tasks stored for requests the agent refused: there must be none.
    const leftBehind = storedTasks
      .filter((task) => !acceptedTasks.has(task.taskId))
      .map(({ taskId, state, contextId }) => {
        const origin = originOf(contextId);
        return `${taskId} state=${state} ctx=${contextId} from ${origin?.request.path} ${String(origin?.request.body).slice(0, 300)} -> ${origin?.status} ${origin?.text.slice(0, 200)}`;
      });
    const threads = new Set((await db.collection("checkpoints_notes").distinct("thread_id")) as string[]);
    const writeThreads = (await db.collection("checkpoint_writes_notes").distinct("thread_id")) as string[];

    const serverErrors = outcomes.filter((o) => o.status >= 500);
    const validOutcomes = outcomes.filter((o) => o.request.valid);
    const rejectedWithThread = outcomes.filter((o) => {
      const contextId = contextIdOf(o.request);
      return (
        o.tasks.length === 0 &&
        contextId !== undefined &&
        !acceptedContexts.has(contextId) &&
        threads.has(contextId)
      );
    });

    const tally = (values: Array<string | number>) => {
      const counts = new Map<string, number>();
      for (const value of values) counts.set(String(value), (counts.get(String(value)) ?? 0) + 1);
      return Object.fromEntries([...counts].sort(([a], [b]) => a.localeCompare(b)));
    };
    console.log(
      `\nfuzz summary (seed ${SEED}, ${outcomes.length + failures.length} of ${RUNS} requests, ${(elapsedMs / 1000).toFixed(1)} s)`,
    );
    console.table({
      requests: outcomes.length + failures.length,
      "no answer (crashes)": failures.length,
      "valid message/send sent": validOutcomes.length,
      "valid that completed": validOutcomes.filter((o) => o.tasks.length > 0).length,
      "accepted (2xx with a task)": outcomes.filter((o) => o.tasks.length > 0).length,
      "task documents stored": storedTaskIds.length,
      "tasks left by refused requests": leftBehind.length,
      "checkpoint threads stored": threads.size,
      "5xx answers": serverErrors.length,
      "heap growth after GC (MB)": Number(heapGrowthMb.toFixed(1)),
      "RSS growth (MB)": Number(rssGrowthMb.toFixed(1)),
      "SDK console.error lines": sdkErrorLines,
    });
    console.log("HTTP status counts");
    console.table(tally(outcomes.map((o) => o.status)));
    console.log("JSON-RPC / A2A error code counts");
    console.table(tally(outcomes.filter((o) => o.rpcCode !== undefined).map((o) => o.rpcCode as number)));
    console.log("requests by family");
    console.table(tally(outcomes.map((o) => o.request.family)));

    expect(failures).toEqual([]);
    expect(leftBehind).toEqual([]);
    expect(
      serverErrors.map(
        (o) =>
          `${o.status} ${o.request.method} ${o.request.path} ${JSON.stringify(o.request.headers)} ${String(o.request.body).slice(0, 200)} -> ${o.text.slice(0, 200)}`,
      ),
    ).toEqual([]);
    expect(outcomes.length).toBeGreaterThanOrEqual(1_000);
    expect(validOutcomes.length).toBeGreaterThan(50);
    for (const outcome of validOutcomes) {
      expect(outcome.tasks.length, `${outcome.request.path} ${outcome.text.slice(0, 300)}`).toBeGreaterThan(
        0,
      );
    }
    expect(heapGrowthMb).toBeLessThan(100);
    expect(rssGrowthMb).toBeLessThan(500);
    // One stored task per accepted request, none for anything refused.
    expect(new Set(storedTaskIds)).toEqual(new Set(acceptedTasks.keys()));
    // Every checkpoint thread belongs to the conversation of an accepted request.
    for (const thread of [...threads, ...writeThreads])
      expect(acceptedContexts.has(thread), thread).toBe(true);
    expect(rejectedWithThread.map((o) => contextIdOf(o.request))).toEqual([]);
    expect((await fetch(`${agent.url}/health`)).status).toBe(200);
  }, 300_000);
});
