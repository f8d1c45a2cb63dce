import { mkdir, rename, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import { testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { type Db, MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDefinitions } from "./source.js";
import type { AgentDocument, DefinitionSource, StoredAgent } from "./spec.js";
import { capturedLogger, nextDefinitions } from "./test-helpers.js";

const agent = (id: string, prompt = "hi", extra = "") =>
  `  - id: ${id}\n    name: ${id}\n    system_prompt: ${prompt}\n    model_id: gpt-4o\n    model_provider: openai\n${extra}`;
const fileWith = (...agents: string[]) =>
  [
    "models:",
    "  - { model_id: gpt-4o, name: GPT-4o, provider: openai }",
    "mcp_servers:",
    "  - { id: github, name: GitHub, transport: http, endpoint: 'http://localhost:8082/mcp' }",
    "workflow_configs: []",
    "agents:",
    ...agents,
  ].join("\n");

const apiAgent = (id: string, prompt = "made through the API"): AgentDocument => ({
  _id: id,
  name: id,
  description: "",
  system_prompt: prompt,
  allowed_tools: {},
  model: { id: "gpt-4o", provider: "openai" },
  visibility: "team",
  subagents: [],
  enabled: true,
  owner_id: "alice@example.com",
  is_system: false,
  config_driven: false,
});

describe("the file and the store on MongoDB, as CAIPE's seed keeps them", () => {
  const dir = scratchDir("definitions");
  const file = join(dir, "app-config.yaml");
  const { logger, lines } = capturedLogger();
  let client: MongoClient;
  let db: Db;
  let source: DefinitionSource;
  let replica: DefinitionSource;
  const agents = () => db.collection<StoredAgent>("dynamic_agents");

  beforeAll(async () => {
    client = await new MongoClient(testMongoUri()).connect();
    db = client.db(uniqueDbName("definitions"));
    await writeFile(file, fileWith(agent("alpha"), agent("beta")));
    source = await openDefinitions({ env: { APP_CONFIG_FILE: file }, logger, db, pollMs: 100 });
    // A second replica of the host: the same database, the same file.
    replica = await openDefinitions({ env: { APP_CONFIG_FILE: file }, logger, db, pollMs: 100 });
  });

  afterAll(async () => {
    await source?.close();
    await replica?.close();
    await client?.close();
  });

  it("serves the file's agents and writes them config-driven into dynamic_agents, with CAIPE's times", async () => {
    expect(source.current().agents.map((spec) => [spec.id, spec.source])).toEqual([
      ["alpha", "config"],
      ["beta", "config"],
    ]);
    const alpha = await agents().findOne({ _id: "alpha" });
    expect(alpha).toMatchObject({
      _id: "alpha",
      name: "alpha",
      system_prompt: "hi",
      model: { id: "gpt-4o", provider: "openai" },
      visibility: "global",
      owner_id: "system",
      is_system: false,
      config_driven: true,
    });
    expect(new Date(alpha?.created_at as string).toISOString()).toBe(alpha?.created_at);
    expect(await db.collection("mcp_servers").findOne({ _id: "github" as never })).toMatchObject({
      transport: "http",
      endpoint: "http://localhost:8082/mcp",
      config_driven: true,
    });
    expect(await db.collection("llm_models").findOne({ _id: "gpt-4o" as never })).toMatchObject({
      model_id: "gpt-4o",
      provider: "openai",
      config_driven: true,
    });
    expect(source.current().unused).toEqual([
      "workflow_configs (0 entries): ignored (CAIPE's workflows are not run by Switchboard)",
    ]);
  });

  it("sees an edit, saved as editors do (a new file renamed over the old), and changes that agent only", async () => {
    const before = source.current().agents;
    const createdAt = (await agents().findOne({ _id: "alpha" }))?.created_at;
    const seen = nextDefinitions(
      source,
      (next) => next.agents.find((spec) => spec.id === "alpha")?.systemPrompt === "changed",
    );
    const seenElsewhere = nextDefinitions(
      replica,
      (next) => next.agents.find((spec) => spec.id === "alpha")?.systemPrompt === "changed",
    );
    await writeFile(`${file}.tmp`, fileWith(agent("alpha", "changed"), agent("beta")));
    await rename(`${file}.tmp`, file);
    const next = await seen;
    await seenElsewhere;
    expect(next.agents.find((spec) => spec.id === "beta")).toEqual(before.find((spec) => spec.id === "beta"));
    expect(next.agents.find((spec) => spec.id === "alpha")?.revision).not.toBe(
      before.find((spec) => spec.id === "alpha")?.revision,
    );
    const stored = await agents().findOne({ _id: "alpha" });
    expect(stored?.system_prompt).toBe("changed");
    expect(stored?.created_at).toBe(createdAt);
  });

  it("keeps everything when the file stops parsing, says why, and takes the file again once it is fixed", async () => {
    const before = source.current().agents;
    const broken = nextDefinitions(source, (next) =>
      next.problems.some((problem) => problem.field === "APP_CONFIG_FILE"),
    );
    await writeFile(file, "agents: [\n  - id: alpha\n");
    const next = await broken;
    expect(next.agents).toEqual(before);
    expect(next.problems[0]?.message).toMatch(
      /not valid YAML.*\(everything it defined before stays as it was\)$/,
    );
    expect(lines.some((line) => line.includes("agent definitions: APP_CONFIG_FILE"))).toBe(true);
    expect(await agents().countDocuments({ config_driven: true })).toBe(2);
    const fixed = nextDefinitions(source, (again) => again.problems.length === 0);
    await writeFile(file, fileWith(agent("alpha", "changed"), agent("beta")));
    expect((await fixed).agents).toEqual(before);
  });

  it("keeps an agent's last good version when an edit breaks only it", async () => {
    const seen = nextDefinitions(source, (next) => next.problems.some((problem) => problem.agent === "beta"));
    await writeFile(
      file,
      fileWith(agent("alpha", "changed"), agent("beta", "hi", "    allowed_tools: { gitlab: true }\n")),
    );
    const next = await seen;
    expect(next.agents.map((spec) => spec.id)).toEqual(["alpha", "beta"]);
    expect(next.agents.find((spec) => spec.id === "beta")?.allowedTools).toEqual({});
    expect(next.problems).toEqual([
      {
        agent: "beta",
        field: "agents[1].allowed_tools.gitlab",
        message:
          'no mcp_servers or openapi_sources entry has the id "gitlab": add one, or remove it here (its last good version is served meanwhile)',
      },
    ]);
  });

  it("removes an agent taken out of the file, and its document, as CAIPE's stale clean-up", async () => {
    const seen = nextDefinitions(source, (next) => !next.agents.some((spec) => spec.id === "beta"));
    await writeFile(file, fileWith(agent("alpha", "changed")));
    await seen;
    expect(await agents().findOne({ _id: "beta" })).toBeNull();
  });

  it("never lets the file overwrite an agent made through the API, nor remove it", async () => {
    await source.store.createAgent(apiAgent("gamma"));
    await source.refresh();
    const seen = nextDefinitions(source, (next) =>
      next.problems.some((problem) => problem.agent === "gamma"),
    );
    await writeFile(file, fileWith(agent("alpha", "changed"), agent("gamma", "from the file")));
    const next = await seen;
    expect(next.agents.find((spec) => spec.id === "gamma")).toMatchObject({
      source: "api",
      systemPrompt: "made through the API",
    });
    expect(next.problems.find((problem) => problem.agent === "gamma")?.field).toBe("agents[1].id");
    expect(await agents().findOne({ _id: "gamma" })).toMatchObject({
      config_driven: false,
      system_prompt: "made through the API",
    });
    await writeFile(file, fileWith(agent("alpha", "changed")));
    await nextDefinitions(source, (again) => !again.problems.some((problem) => problem.agent === "gamma"));
    expect(await agents().findOne({ _id: "gamma" })).not.toBeNull();
  });

  it("serves what the file last wrote to the store when a host starts with a file that does not read", async () => {
    const broken = join(dir, "broken.yaml");
    await writeFile(broken, "agents:\n  - id: alpha\n   name: misindented\n");
    const restarted = await openDefinitions({ env: { APP_CONFIG_FILE: broken }, logger, db, pollMs: 100 });
    try {
      const now = restarted.current();
      expect(now.agents.find((spec) => spec.id === "alpha")).toMatchObject({
        source: "config",
        systemPrompt: "changed",
      });
      expect(now.toolSources.map((one) => one.id)).toEqual(["github"]);
      expect(now.problems[0]).toMatchObject({
        field: "APP_CONFIG_FILE",
        message: expect.stringMatching(/not valid YAML/),
      });
      // Nothing the file wrote was removed for it.
      expect(await agents().findOne({ _id: "alpha" })).not.toBeNull();
    } finally {
      await restarted.close();
    }
  });

  it("shows every replica a change made through another, and one CAIPE's own UI wrote", async () => {
    const seen = nextDefinitions(replica, (next) => next.agents.some((spec) => spec.id === "delta"));
    await source.store.createAgent(apiAgent("delta"));
    expect((await seen).agents.find((spec) => spec.id === "delta")?.source).toBe("api");
    // CAIPE's UI writes the collection without bumping Switchboard's revision.
    const written = nextDefinitions(replica, (next) => next.agents.some((spec) => spec.id === "epsilon"));
    const time = new Date().toISOString();
    await agents().insertOne({ ...apiAgent("epsilon"), created_at: time, updated_at: time } as StoredAgent);
    await written;
    const gone = nextDefinitions(replica, (next) => !next.agents.some((spec) => spec.id === "delta"));
    expect(await source.store.deleteAgent("delta")).toBe(true);
    await gone;
  });
});

describe("without MongoDB", () => {
  it("keeps agents made through the API in memory, beside the file's", async () => {
    const file = join(scratchDir("definitions-memory"), "app-config.yaml");
    await writeFile(file, fileWith(agent("alpha")));
    const { logger } = capturedLogger();
    const source = await openDefinitions({ env: { APP_CONFIG_FILE: file }, logger, pollMs: 100 });
    try {
      expect(source.store.kind).toBe("memory");
      expect(await source.store.createAgent(apiAgent("beta"))).toBe(true);
      expect(await source.store.createAgent(apiAgent("beta"))).toBe(false);
      await source.refresh();
      expect(source.current().agents.map((spec) => [spec.id, spec.source])).toEqual([
        ["alpha", "config"],
        ["beta", "api"],
      ]);
      // The file's own agent is the file's: the store will not replace or delete it as API-made.
      expect(await source.store.replaceAgent({ ...apiAgent("alpha"), system_prompt: "x" })).toBe(false);
      expect(await source.store.deleteAgent("alpha")).toBe(false);
      expect((await source.store.getAgent("alpha"))?.config_driven).toBe(true);
    } finally {
      await source.close();
    }
  });
});

describe("a file far too large", () => {
  it("is not read, and says why", async () => {
    const file = join(scratchDir("definitions-large"), "app-config.yaml");
    await writeFile(file, `${fileWith(agent("alpha"))}\n# ${"x".repeat(5 * 1024 * 1024)}\n`);
    const { logger } = capturedLogger();
    const source = await openDefinitions({ env: { APP_CONFIG_FILE: file }, logger, pollMs: 100 });
    try {
      expect(source.current().agents).toEqual([]);
      expect(source.current().problems).toEqual([
        {
          field: "APP_CONFIG_FILE",
          message: `${file} is over 4 MB: split it, or move agents to the API (everything it defined before stays as it was)`,
        },
      ]);
    } finally {
      await source.close();
    }
  });
});

describe("a file in a Kubernetes ConfigMap", () => {
  it("sees the kubelet's swap of the ..data link, as an edit of the file", async () => {
    // The kubelet's layout: app-config.yaml → ..data/app-config.yaml, ..data → ..<timestamp>/,
    // updated by writing a new timestamped folder and renaming a new link over ..data.
    const dir = scratchDir("definitions-configmap");
    const version = async (name: string, text: string) => {
      await mkdir(join(dir, name));
      await writeFile(join(dir, name, "app-config.yaml"), text);
    };
    await version("..2026_11_29_04_00_00.1", fileWith(agent("alpha", "first")));
    await symlink("..2026_11_29_04_00_00.1", join(dir, "..data"));
    await symlink(join("..data", "app-config.yaml"), join(dir, "app-config.yaml"));
    const { logger } = capturedLogger();
    const source = await openDefinitions({
      env: { APP_CONFIG_FILE: join(dir, "app-config.yaml") },
      logger,
      pollMs: 100,
    });
    try {
      expect(source.current().agents[0]?.systemPrompt).toBe("first");
      const seen = nextDefinitions(source, (next) => next.agents[0]?.systemPrompt === "second");
      await version("..2026_11_29_04_05_00.2", fileWith(agent("alpha", "second")));
      await symlink("..2026_11_29_04_05_00.2", join(dir, "..data_tmp"));
      await rename(join(dir, "..data_tmp"), join(dir, "..data"));
      await seen;
    } finally {
      await source.close();
    }
  });
});
