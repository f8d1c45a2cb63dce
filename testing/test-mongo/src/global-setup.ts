import type { TestProject } from "vitest/node";
import { MONGO_URI_KEY } from "./inject.js";
import { startTestMongo } from "./server.js";

/** Vitest global setup: one MongoDB for the whole run (MONGODB_URI, else a test server), stopped afterwards. */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const provide = project.provide as (key: string, value: string) => void;
  const external = process.env.MONGODB_URI;
  if (external) {
    provide(MONGO_URI_KEY, external);
    return undefined;
  }
  const mongo = await startTestMongo();
  provide(MONGO_URI_KEY, mongo.uri);
  return () => mongo.stop();
}
