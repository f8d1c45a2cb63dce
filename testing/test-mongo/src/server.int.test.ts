import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestMongo, type TestMongo } from "./server.js";

describe("test MongoDB", () => {
  let mongo: TestMongo;
  beforeAll(async () => {
    mongo = await startTestMongo();
  });
  afterAll(() => mongo?.stop());

  it("speaks the wire protocol the Node driver 7 requires (MongoDB 6.0, wire 17)", async () => {
    const client = new MongoClient(mongo.uri, { serverSelectionTimeoutMS: 5_000 });
    try {
      const hello = await client.db("admin").command({ isMaster: 1 });
      expect(hello.maxWireVersion).toBeGreaterThanOrEqual(17);
      const build = await client.db("admin").command({ buildInfo: 1 });
      expect(build.version).toMatch(/^6\.0/);
      await client.db("probe").collection("docs").insertOne({ hello: "world" });
      expect(await client.db("probe").collection("docs").countDocuments()).toBe(1);
    } finally {
      await client.close();
    }
  });

  it("stops on request and frees its port", async () => {
    const other = await startTestMongo();
    await other.stop();
    const client = new MongoClient(other.uri, { serverSelectionTimeoutMS: 1_000 });
    await expect(client.connect()).rejects.toThrow();
    await client.close();
  });
});
