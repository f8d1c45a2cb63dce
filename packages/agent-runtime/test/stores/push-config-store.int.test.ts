import { TaskPushNotificationConfig } from "@a2a-js/sdk";
import { resolveUserScope, ServerCallContext, type User } from "@a2a-js/sdk/server";
import { beforeAll, describe, expect, it } from "vitest";
import type { AgentPushConfigStore } from "../../src/push/store.js";
import { caller, contextOf, storeBackends } from "./backends.js";

// One contract for an agent's push-notification config store, run against the memory and the MongoDB one.

const alice = caller("alice");
const bob = caller("bob");
const ownerOf = (user: User) => resolveUserScope(contextOf(user));
const config = (taskId: string, id: string, url = `https://hooks.example.com/${id}`) =>
  TaskPushNotificationConfig.fromJSON({ id, taskId, url, token: `token-${id}` });
const idsOf = (configs: TaskPushNotificationConfig[]) => configs.map((found) => found.id);

describe.each(storeBackends("push-config-store"))("the $name push-config store", (backend) => {
  let configs: AgentPushConfigStore;
  let other: AgentPushConfigStore;

  beforeAll(async () => {
    configs = (await backend.open("push-alpha")).pushConfigs;
    other = (await backend.open("push-beta")).pushConfigs;
  });

  it("saves a task's configs for their owner, giving one without an id its own, and replaces by id", async () => {
    const unnamed = config("t-1", "");
    await configs.save("t-1", contextOf(alice), unnamed);
    expect(unnamed.id).not.toBe("");
    await configs.save("t-1", contextOf(alice), config("t-1", "b-hook"));
    await configs.save("t-1", contextOf(alice), config("t-1", "b-hook", "https://hooks.example.com/moved"));
    const loaded = await configs.load("t-1", contextOf(alice));
    expect(idsOf(loaded).sort()).toEqual([unnamed.id, "b-hook"].sort());
    expect(loaded.find((found) => found.id === "b-hook")?.url).toBe("https://hooks.example.com/moved");
    expect(await configs.load("t-1", contextOf(bob))).toEqual([]);
    expect(await other.load("t-1", contextOf(alice))).toEqual([]);
  });

  it("keeps the protocol version each config was registered over (0.3 when the call named none)", async () => {
    const v1 = new ServerCallContext({ user: alice, requestedVersion: "1.0" });
    await configs.save("t-version", v1, config("t-version", "new"));
    await configs.save("t-version", contextOf(alice), config("t-version", "old"));
    const stored = await configs.loadWithMetadata("t-version", contextOf(alice));
    expect(stored.map(({ config, wireVersion }) => [config.id, wireVersion])).toEqual([
      ["new", "1.0"],
      ["old", "0.3"],
    ]);
  });

  it("deletes one config by id, and the task's default (its id the task's) when none is named", async () => {
    await configs.save("t-del", contextOf(alice), config("t-del", "t-del"));
    await configs.save("t-del", contextOf(alice), config("t-del", "extra"));
    await configs.delete("t-del", contextOf(bob), "extra");
    expect(idsOf(await configs.load("t-del", contextOf(alice))).sort()).toEqual(["extra", "t-del"]);
    await configs.delete("t-del", contextOf(alice));
    expect(idsOf(await configs.load("t-del", contextOf(alice)))).toEqual(["extra"]);
    await configs.delete("t-del", contextOf(alice), "extra");
    expect(await configs.load("t-del", contextOf(alice))).toEqual([]);
  });

  it("deletes the owner's configs of a conversation's tasks, and nobody else's", async () => {
    for (const taskId of ["c-1", "c-2", "c-3"])
      await configs.save(taskId, contextOf(alice), config(taskId, "h"));
    await configs.save("c-1", contextOf(bob), config("c-1", "h"));
    await other.save("c-1", contextOf(alice), config("c-1", "h"));
    // Read once, so a cached read cannot answer after the deletion.
    await configs.loadWithMetadata("c-1", contextOf(alice));
    expect(await configs.deleteTasks(ownerOf(alice), ["c-1", "c-2"])).toBe(2);
    expect(await configs.loadWithMetadata("c-1", contextOf(alice))).toEqual([]);
    expect(await configs.load("c-2", contextOf(alice))).toEqual([]);
    expect(idsOf(await configs.load("c-3", contextOf(alice)))).toEqual(["h"]);
    expect(idsOf(await configs.load("c-1", contextOf(bob)))).toEqual(["h"]);
    expect(idsOf(await other.load("c-1", contextOf(alice)))).toEqual(["h"]);
    expect(await configs.deleteTasks(ownerOf(alice), [])).toBe(0);
  });

  it("deletes every config of a user, and nobody else's", async () => {
    const user = caller("leaver");
    await configs.save("u-1", contextOf(user), config("u-1", "a"));
    await configs.save("u-2", contextOf(user), config("u-2", "b"));
    await configs.save("u-1", contextOf(bob), config("u-1", "a"));
    await configs.loadWithMetadata("u-1", contextOf(user));
    expect(await configs.deleteUser(ownerOf(user))).toBe(2);
    expect(await configs.loadWithMetadata("u-1", contextOf(user))).toEqual([]);
    expect(await configs.load("u-2", contextOf(user))).toEqual([]);
    expect(idsOf(await configs.load("u-1", contextOf(bob)))).toEqual(["a"]);
  });
});
