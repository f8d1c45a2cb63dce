import { openStore, type StoreHandle } from "@switchboard/utils";
import { testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryBook } from "../../src/memory/memory-book.js";
import { silent } from "./backends.js";

// One contract for an agent's memory book, run on each long-term store LANGGRAPH_STORE_TYPE chooses
// (memory, MongoDB): what is remembered per owner, listed, erased one by one and as a whole (the
// book's part of "forget me"), and each agent's apart.

const dbName = uniqueDbName("memory-book");
const backends = [
  { name: "memory", env: () => ({ LANGGRAPH_STORE_TYPE: "memory" }) },
  {
    name: "mongodb",
    env: () => ({
      LANGGRAPH_STORE_TYPE: "mongodb",
      MONGODB_URI: testMongoUri(),
      LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: dbName,
    }),
  },
];

describe.each(backends)("the memory book on the $name store", (backend) => {
  const handles: StoreHandle[] = [];
  let book: MemoryBook;
  let other: MemoryBook;

  const open = async (agent: string) => {
    const handle = await openStore({ env: backend.env(), agentName: agent, logger: silent });
    handles.push(handle);
    if (!handle.store) throw new Error(`no store for ${backend.name}`);
    const revision = handle.revision;
    return new MemoryBook({
      store: handle.store,
      revision: revision ? (namespace) => revision(namespace) : undefined,
      maxPerUser: 3,
      logger: silent,
    });
  };

  beforeAll(async () => {
    book = await open("book-alpha");
    other = await open("book-beta");
  });
  afterAll(async () => {
    await Promise.all(handles.map((handle) => handle.close()));
    if (backend.name !== "mongodb") return;
    const mongo = await MongoClient.connect(testMongoUri());
    await mongo.db(dbName).dropDatabase();
    await mongo.close();
  });

  it("remembers per owner, one memory per topic, and lists only the owner's", async () => {
    expect(await book.remember("ann", "Deploys go through ArgoCD", "deploys", "user")).toMatchObject({
      status: "stored",
    });
    expect(await book.remember("ann", "Deploys go through Flux now", "deploys", "user")).toMatchObject({
      status: "updated",
    });
    await book.remember("ann", "Jira project is PLAT", "jira project", "extracted");
    await book.remember("ben", "Jira project is OPS", "jira project", "user");
    const listed = await book.list("ann");
    expect(listed.map((memory) => [memory.topic, memory.text, memory.source]).sort()).toEqual([
      ["deploys", "Deploys go through Flux now", "user"],
      ["jira project", "Jira project is PLAT", "extracted"],
    ]);
    expect((await book.list("ben")).map((memory) => memory.text)).toEqual(["Jira project is OPS"]);
    expect(await other.list("ann")).toEqual([]);
  });

  it("refuses a secret and keeps at most the per-user cap, the least recently used going first", async () => {
    const refused = await book.remember(
      "cap",
      "my token is ghp_abcdefghijklmnopqrstuvwxyz0123456789",
      "token",
      "user",
    );
    expect(refused.status).toBe("refused");
    for (const topic of ["one", "two", "three", "four"])
      await book.remember("cap", `fact ${topic}`, topic, "user");
    expect((await book.list("cap")).map((memory) => memory.topic).sort()).toEqual(["four", "three", "two"]);
  });

  it("recalls the owner's relevant memories into a budget", async () => {
    await book.remember("recaller", "The staging cluster is eu-west-1", "staging cluster", "user");
    const recalled = await book.recall("recaller", "which cluster is staging?", 500);
    expect(recalled.texts).toEqual(["The staging cluster is eu-west-1"]);
    expect((await book.recall("nobody", "which cluster is staging?", 500)).texts).toEqual([]);
  });

  it("erases one memory of the owner, and all of them (the book's part of forget me), nobody else's", async () => {
    await book.remember("leaver", "Prefers terse answers", "style", "user");
    await book.remember("leaver", "Team is platform", "team", "user");
    await book.remember("stayer", "Team is data", "team", "user");
    await other.remember("leaver", "Team is platform", "team", "user");
    const [first] = await book.list("leaver");
    expect(await book.forget("stayer", first?.id ?? "")).toBe(false);
    expect(await book.forget("leaver", first?.id ?? "")).toBe(true);
    expect(await book.list("leaver")).toHaveLength(1);
    expect(await book.forgetAll("leaver")).toBe(1);
    expect(await book.list("leaver")).toEqual([]);
    expect(await book.list("stayer")).toHaveLength(1);
    expect(await other.list("leaver")).toHaveLength(1);
  });
});
