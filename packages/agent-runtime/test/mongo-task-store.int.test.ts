import { randomUUID } from "node:crypto";
import { Task, TaskState } from "@a2a-js/sdk";
import { ServerCallContext, type TaskStore, type User } from "@a2a-js/sdk/server";
import { testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { type Db, MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listConversations } from "../src/conversations/history.js";
import { MongoTaskStore, PROGRESS_WRITE_MS } from "../src/tasks/mongo-task-store.js";

const context = new ServerCallContext();

function task(id: string, state: keyof typeof TaskState, messages: string[], answer?: string): Task {
  return Task.fromJSON({
    id,
    contextId: "ctx",
    status: { state, timestamp: new Date().toISOString() },
    history: messages.map((text) => ({ messageId: text, role: "ROLE_USER", parts: [{ text }] })),
    artifacts: answer ? [{ artifactId: "answer", parts: [{ text: answer }] }] : [],
  });
}

const texts = (loaded: Task | undefined) =>
  (loaded?.history ?? []).map((message) =>
    message.parts[0]?.content?.$case === "text" ? message.parts[0].content.value : "",
  );

// Two stores on one collection are two replicas of an agent.
describe("A2A tasks in MongoDB", () => {
  const dbName = uniqueDbName("tasks");
  let mongo: MongoClient;
  let db: Db;
  let replica: MongoTaskStore;
  let other: MongoTaskStore;

  beforeAll(async () => {
    mongo = await MongoClient.connect(testMongoUri());
    db = mongo.db(dbName);
    replica = await MongoTaskStore.create(db, "notes");
    other = await MongoTaskStore.create(db, "notes");
  });
  afterAll(async () => {
    await db.dropDatabase();
    await mongo.close();
  });

  it("stores a new task and its outcome at once, and a turn's start and progress soon after", async () => {
    const id = randomUUID();
    await replica.save(task(id, "TASK_STATE_SUBMITTED", ["hi"]), context);
    expect((await other.load(id, context))?.status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);

    // The turn starting, and its progress: the replica running it sees them at once, others a
    // moment later, in one write.
    await replica.save(task(id, "TASK_STATE_WORKING", ["hi"]), context);
    await replica.save(task(id, "TASK_STATE_WORKING", ["hi", "Calling list_notes"]), context);
    expect(texts(await replica.load(id, context))).toEqual(["hi", "Calling list_notes"]);
    expect((await other.load(id, context))?.status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);
    await new Promise((resolve) => setTimeout(resolve, PROGRESS_WRITE_MS * 3));
    const started = await other.load(id, context);
    expect(started?.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    expect(texts(started)).toEqual(["hi", "Calling list_notes"]);

    await replica.save(
      task(id, "TASK_STATE_WORKING", ["hi", "Calling list_notes", "list_notes done"]),
      context,
    );
    await replica.save(
      task(id, "TASK_STATE_COMPLETED", ["hi", "Calling list_notes", "list_notes done"], "3 notes"),
      context,
    );
    // Once save resolves, the outcome and all progress before it are in MongoDB.
    const finished = await other.load(id, context);
    expect(finished?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(texts(finished)).toEqual(["hi", "Calling list_notes", "list_notes done"]);
    expect(finished?.artifacts.map((artifact) => artifact.artifactId)).toEqual(["answer"]);
  });

  it("lists a caller's conversations grouped in MongoDB exactly as reading their tasks one by one does", async () => {
    const user: User = { isAuthenticated: true, userName: `lister-${randomUUID()}` };
    const lister = new ServerCallContext({ user });
    const states = ["TASK_STATE_COMPLETED", "TASK_STATE_INPUT_REQUIRED", "TASK_STATE_FAILED"] as const;
    const start = Date.now();
    // 40 tasks in 7 conversations, two at a time with the same status time, in three end states.
    for (let i = 0; i < 40; i++) {
      const contextId = `conversation-${i % 7}`;
      await replica.save(
        Task.fromJSON({
          id: `task-${i}`,
          contextId,
          status: {
            state: states[i % 3],
            timestamp: new Date(start + Math.floor(i / 2) * 1000).toISOString(),
          },
          history: [
            { messageId: `m-${i}`, role: "ROLE_USER", parts: [{ text: `message ${i} of ${contextId}` }] },
          ],
          artifacts: [{ artifactId: "answer", parts: [{ text: `answer ${i}` }] }],
        }),
        lister,
      );
    }
    // The same store seen only as a TaskStore: the list read task by task, page by page.
    const taskByTask: TaskStore = {
      save: (task, context) => replica.save(task, context),
      load: (taskId, context) => replica.load(taskId, context),
      list: (params, context) => replica.list(params, context),
    };

    const grouped = await listConversations(replica, user);
    expect(grouped).toEqual(await listConversations(taskByTask, user));
    // Newest first (task 39 is conversation 4's), each titled by its first message.
    expect(grouped.map(({ contextId, tasks, title, state }) => [contextId, tasks, title, state])).toEqual([
      ["conversation-4", 6, "message 4 of conversation-4", "completed"],
      ["conversation-3", 6, "message 3 of conversation-3", "failed"],
      ["conversation-2", 6, "message 2 of conversation-2", "input-required"],
      ["conversation-1", 6, "message 1 of conversation-1", "completed"],
      ["conversation-0", 6, "message 0 of conversation-0", "failed"],
      ["conversation-6", 5, "message 6 of conversation-6", "input-required"],
      ["conversation-5", 5, "message 5 of conversation-5", "completed"],
    ]);
    // Only the newest tasks count: ten of them, the older ones of a conversation left out.
    const newest = await replica.conversationsOf(lister, 10);
    expect(newest.reduce((sum, { count }) => sum + count, 0)).toBe(10);
    expect(newest.map(({ contextId, count }) => [contextId, count])[0]).toEqual(["conversation-4", 2]);
  });

  it("lists what a running turn has done so far", async () => {
    const id = randomUUID();
    await replica.save(task(id, "TASK_STATE_WORKING", ["list"]), context);
    await replica.save(task(id, "TASK_STATE_WORKING", ["list", "Calling list_notes"]), context);
    const listed = await replica.list(
      {
        tenant: "",
        contextId: "ctx",
        status: TaskState.TASK_STATE_UNSPECIFIED,
        pageSize: 100,
        pageToken: "",
        statusTimestampAfter: undefined,
      },
      context,
    );
    expect(texts(listed.tasks.find((listedTask) => listedTask.id === id))).toEqual([
      "list",
      "Calling list_notes",
    ]);
  });

  it("writes only the caller's own running turns before their list: another user's keep their schedule", async () => {
    const as = (userName: string) => new ServerCallContext({ user: { isAuthenticated: true, userName } });
    const [alice, bob] = [as(`alice-${randomUUID()}`), as(`bob-${randomUUID()}`)];
    const [hers, his] = [randomUUID(), randomUUID()];
    await replica.save(task(hers, "TASK_STATE_SUBMITTED", ["hers"]), alice);
    await replica.save(task(his, "TASK_STATE_SUBMITTED", ["his"]), bob);
    await replica.save(task(hers, "TASK_STATE_WORKING", ["hers", "Calling list_notes"]), alice);
    await replica.save(task(his, "TASK_STATE_WORKING", ["his", "Calling list_notes"]), bob);

    const [listed] = await replica.conversationsOf(alice, 10);
    expect(listed?.state).toBe(TaskState.TASK_STATE_WORKING);
    expect((await other.load(hers, alice))?.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    // Bob's progress was not written for Alice's list: it goes out on its own, a moment later.
    expect((await other.load(his, bob))?.status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);
    await new Promise((resolve) => setTimeout(resolve, PROGRESS_WRITE_MS * 3));
    expect(texts(await other.load(his, bob))).toEqual(["his", "Calling list_notes"]);
  });

  it("keeps a task another replica canceled mid-turn canceled", async () => {
    const id = randomUUID();
    await replica.save(task(id, "TASK_STATE_WORKING", ["slow please"]), context);
    // The other replica cancels it (the SDK reads, then writes the canceled state).
    const seen = await other.load(id, context);
    await other.save(
      Task.fromJSON({ ...(Task.toJSON(seen as Task) as object), status: { state: "TASK_STATE_CANCELED" } }),
      context,
    );

    await replica.save(task(id, "TASK_STATE_WORKING", ["slow please", "still thinking"]), context);
    await replica.save(task(id, "TASK_STATE_COMPLETED", ["slow please", "still thinking"], "done"), context);
    expect((await other.load(id, context))?.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect((await replica.load(id, context))?.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it("keeps a message another replica added to a running task, and the question this one asked", async () => {
    const id = randomUUID();
    await replica.save(task(id, "TASK_STATE_WORKING", ["first"]), context);
    // The other replica takes a second message on the task (its turn waits for this one).
    const seen = (await other.load(id, context)) as Task;
    await other.save(task(id, "TASK_STATE_WORKING", [...texts(seen), "second"]), context);
    await replica.save(task(id, "TASK_STATE_INPUT_REQUIRED", ["first", "Add the note?"]), context);
    await new Promise((resolve) => setTimeout(resolve, PROGRESS_WRITE_MS * 3));

    const stored = await (await MongoTaskStore.create(db, "notes")).load(id, context);
    expect(stored?.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(texts(stored)).toEqual(expect.arrayContaining(["first", "second", "Add the note?"]));
  });

  it("does not bring back a task deleted mid-turn", async () => {
    const id = randomUUID();
    await replica.save(task(id, "TASK_STATE_WORKING", ["hi"]), context);
    await db.collection("tasks_notes").deleteMany({ taskId: id });
    await replica.save(task(id, "TASK_STATE_COMPLETED", ["hi"], "hello"), context);
    expect(await db.collection("tasks_notes").countDocuments({ taskId: id })).toBe(0);
    expect(await replica.load(id, context)).toBeUndefined();
  });
});
