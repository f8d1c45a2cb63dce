#!/usr/bin/env node
// Starts the test MongoDB in the foreground and prints its URI; Ctrl-C stops it.
import { startTestMongo } from "../dist/server.js";

const port = Number(process.argv[2] ?? 0);
const mongo = await startTestMongo({ port });
console.log(`MONGODB_URI=${mongo.uri}`);
const stop = async () => {
  await mongo.stop();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
