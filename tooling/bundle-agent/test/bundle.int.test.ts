import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { startAgentProcess } from "@switchboard-testing/test-agents";
import { testMongoEnv, testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleAgent, RUNTIME_PACKAGE } from "../src/bundle.js";

const repoRoot = join(import.meta.dirname, "..", "..", "..");
const fixture = join(import.meta.dirname, "fixture");
const outdir = join(fixture, "dist");
const runtimeLink = join(fixture, "node_modules", RUNTIME_PACKAGE);

beforeAll(() => {
  // What pnpm links for a workspace agent (and copies into a deployed one).
  mkdirSync(dirname(runtimeLink), { recursive: true });
  rmSync(runtimeLink, { force: true });
  symlinkSync(join(repoRoot, "packages", "agent-runtime"), runtimeLink, "dir");
});

afterAll(() => {
  rmSync(join(fixture, "node_modules"), { recursive: true, force: true });
  rmSync(outdir, { recursive: true, force: true });
});

function bundledText(): string {
  const files = [
    join(outdir, "index.js"),
    ...readdirSync(join(outdir, "chunks")).map((file) => join(outdir, "chunks", file)),
  ];
  return files
    .filter((file) => file.endsWith(".js"))
    .map((file) => readFileSync(file, "utf8"))
    .join("\n");
}

describe("bundleAgent", () => {
  it("bundles an agent into dist/index.js and chunks that start and checkpoint to MongoDB", async () => {
    const report = await bundleAgent(fixture);
    expect(report.entry).toBe(join(outdir, "index.js"));
    expect(report.files).toBeGreaterThan(1);
    expect(report.modules).toBeGreaterThan(500);
    // The packages that read their own files are required from the runtime's folder, not copied in.
    const text = bundledText();
    expect(text).toContain(`${RUNTIME_PACKAGE}/package.json`);
    expect(text).not.toContain("class MongoClient");
    expect(text).not.toContain("cedar_wasm_bg");

    const dbName = uniqueDbName("bundle");
    const agent = await startAgentProcess(fixture, { env: testMongoEnv(dbName) });
    try {
      expect((await fetch(`${agent.url}/ready`)).status).toBe(200);
      const client = await MongoClient.connect(testMongoUri());
      try {
        const collections = await client.db(dbName).listCollections().toArray();
        expect(collections.map((collection) => collection.name)).toContain("checkpoints_fixture");
      } finally {
        await client.close();
      }
    } finally {
      await agent.kill("SIGTERM");
    }
  });

  it("refuses a package that does not depend on the agent runtime, saying what to add", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bundle-agent-"));
    try {
      writeFileSync(
        join(dir, "package.json"),
        JSON.stringify({ name: "@acme/agent-lonely", dependencies: {} }),
      );
      await expect(bundleAgent(dir)).rejects.toThrow(
        `@acme/agent-lonely does not depend on ${RUNTIME_PACKAGE}, which the bundle loads mongodb, ` +
          `@cedar-policy/cedar-wasm, @opentelemetry/ from: add it to "dependencies" in its package.json.`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
