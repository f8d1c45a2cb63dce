import { randomUUID } from "node:crypto";
import { TaskPushNotificationConfig } from "@a2a-js/sdk";
import { ServerCallContext } from "@a2a-js/sdk/server";
import { testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { type Db, MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MongoPushConfigStore } from "../src/push/store.js";

const context = new ServerCallContext();
const config = (url: string) => TaskPushNotificationConfig.fromJSON({ url });
const urls = (configs: Array<{ config: TaskPushNotificationConfig }>) =>
  configs.map(({ config }) => config.url);

// Two stores on one collection are two replicas of an agent: deliveries read a task's configs at most
// once per second however many updates it has, and still see a config another replica saved.
describe("push-notification configs in MongoDB", () => {
  const dbName = uniqueDbName("push_store");
  let mongo: MongoClient;
  let db: Db;
  let replica: MongoPushConfigStore;
  let other: MongoPushConfigStore;

  beforeAll(async () => {
    mongo = await MongoClient.connect(testMongoUri(), { monitorCommands: true });
    db = mongo.db(dbName);
    replica = await MongoPushConfigStore.create(db, "notes");
    other = await MongoPushConfigStore.create(db, "notes");
  });
  afterAll(async () => {
    await db?.dropDatabase();
    await mongo?.close();
  });

  it("delivers to a config saved here at once, and to one saved on another replica within a second", async () => {
    const taskId = randomUUID();
    expect(await replica.loadWithMetadata(taskId, context)).toEqual([]);

    await replica.save(taskId, context, config("https://hooks.example.com/here"));
    expect(urls(await replica.loadWithMetadata(taskId, context))).toEqual(["https://hooks.example.com/here"]);

    await other.save(taskId, context, config("https://hooks.example.com/there"));
    // A caller listing the task's configs sees both at once, on either replica.
    expect((await replica.load(taskId, context)).map((stored) => stored.url).sort()).toEqual([
      "https://hooks.example.com/here",
      "https://hooks.example.com/there",
    ]);
    const deadline = Date.now() + 3_000;
    let delivered = urls(await replica.loadWithMetadata(taskId, context));
    while (delivered.length < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      delivered = urls(await replica.loadWithMetadata(taskId, context));
    }
    expect(delivered.sort()).toEqual(["https://hooks.example.com/here", "https://hooks.example.com/there"]);

    const [here] = await replica.load(taskId, context);
    await replica.delete(taskId, context, here?.id);
    expect(urls(await replica.loadWithMetadata(taskId, context))).toHaveLength(1);
  });

  it("reads the store once for a burst of updates", async () => {
    const taskId = randomUUID();
    await replica.save(taskId, context, config("https://hooks.example.com/burst"));
    const finds: string[] = [];
    mongo.on("commandStarted", (event) => {
      if (event.commandName === "find" && event.command.find === "push_configs_notes") finds.push(taskId);
    });
    const burst = await Promise.all(
      Array.from({ length: 9 }, () => replica.loadWithMetadata(taskId, context)),
    );
    expect(burst.every((configs) => configs.length === 1)).toBe(true);
    expect(finds.length).toBeLessThanOrEqual(1);
  });

  it("knows a new task's configs without a read: none, or what its own request saved", async () => {
    const plain = randomUUID();
    const hooked = randomUUID();
    // The SDK saves a config sent with the message before the turn starts.
    await replica.save(hooked, context, config("https://hooks.example.com/own"));
    const finds: string[] = [];
    mongo.on("commandStarted", (event) => {
      if (event.commandName === "find" && event.command.find === "push_configs_notes") finds.push("find");
    });
    replica.willCreate(plain, context);
    replica.willCreate(hooked, context);
    expect(await replica.loadWithMetadata(plain, context)).toEqual([]);
    expect(urls(await replica.loadWithMetadata(hooked, context))).toEqual(["https://hooks.example.com/own"]);
    expect(finds).toEqual([]);
  });

  it("reads a long turn's configs again for its end, not for each piece of progress", async () => {
    const taskId = randomUUID();
    replica.willCreate(taskId, context);
    await other.save(taskId, context, config("https://hooks.example.com/later"));
    // The turn has run for longer than the configs stay fresh for a change of state.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const finds: string[] = [];
    mongo.on("commandStarted", (event) => {
      if (event.commandName === "find" && event.command.find === "push_configs_notes") finds.push("find");
    });
    expect(await replica.loadWithMetadata(taskId, context, { progress: true })).toEqual([]);
    expect(finds).toEqual([]);
    expect(urls(await replica.loadWithMetadata(taskId, context, { progress: false }))).toEqual([
      "https://hooks.example.com/later",
    ]);
    expect(urls(await replica.loadWithMetadata(taskId, context, { progress: true }))).toEqual([
      "https://hooks.example.com/later",
    ]);
    expect(finds).toEqual(["find"]);
  });
});
