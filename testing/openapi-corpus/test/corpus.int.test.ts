import { randomUUID } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { connectAgent } from "@switchboard/a2a-client";
import { envPrefixFor } from "@switchboard/contract";
import { checkFleet } from "@switchboard/fleet-config";
import { readDescription } from "@switchboard/openapi-tools/reading";
import { INTEGRATION_ONLY_ENV } from "@switchboard/vitest-config";
import { type ReceivedRequest, startOpenApiFake } from "@switchboard-testing/fake-vendors";
import { type AgentProcess, startAgentProcess } from "@switchboard-testing/test-agents";
import {
  callTool,
  replyFromToolResult,
  routeByAgentPrefix,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { testMongoEnv, testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { agentNameOf, CORPUS, type CorpusEntry, generate, sourceFileIn } from "../src/index.js";
import {
  copyRepo,
  inParallel,
  linkDeclaredDependencies,
  linkInstalledDependencies,
  type RunResult,
  repoRoot,
  run,
} from "../src/workspace.js";
import { type Exercise, exerciseOf } from "./exercise.js";
import { GENERATOR_CASES, GENERATOR_DESCRIPTIONS, MIN_GENERATED_TESTS } from "./generator-cases.js";
import { startItemsApi } from "./items-api.js";
import { KNOWN } from "./known.js";
import { MCP_AGENT, memoryServerCommand, NEW_AGENT } from "./new-agent-cases.js";

const STEP_TIMEOUT = 300_000;
/**
 * The agents this file starts are stopped (SIGTERM) with no turn running: without a grace period
 * each closes at once instead of staying a second for load balancers to notice.
 */
const NO_GRACE = { SHUTDOWN_GRACE_SECONDS: "0" };
/** This checkout's built create-agent, as the root `pnpm new-agent` script runs it after its build. */
const CREATE_AGENT = join(repoRoot, "tooling/create-agent/bin/create-agent.js");

/** What happened to one description on the way: the first step that failed, and why. */
interface Outcome {
  entry: CorpusEntry;
  agent: string;
  dir: string;
  /** Every step that failed, first first (the read and change are tried even when its own tests fail). */
  failures: Array<{ step: Step; why: string }>;
  ms: Partial<Record<Step, number>>;
  /** How the read's credential came to the API, as the fake saw it. */
  sent?: string;
}
type Step = "generate" | "build" | "own tests" | "read" | "change";

/** One of the generator's own cases (generator-cases.ts): every step it failed, and its tests' count. */
interface CaseOutcome {
  name: string;
  dir: string;
  failures: string[];
  passed: number;
}

/**
 * Every description of the corpus, as a new user would take it: `pnpm new-agent --openapi` in a copy
 * of the repository, the package built, its own tests run as generated, then the built agent started
 * against a fake made from the description that accepts only the credential its security scheme
 * says: one read, and one change that asks first and is done once after "yes". What a description
 * still cannot do is in known.ts, each with why; a step that starts to pass there fails this test
 * until its entry is taken out.
 */
describe("the OpenAPI corpus, each description made into an agent", () => {
  let repo: string;
  const outcomes = new Map<string, Outcome>();
  const cases = new Map<string, CaseOutcome>();
  /** What checkFleet found once every agent was made: the fleet files agree with agents/. */
  let fleetProblems: string[] = [];
  /** pnpm new-agent's own cases (new-agent-cases.ts): what each creation printed and left behind. */
  const newAgents = {} as {
    /** The fleet files before them, which removing them must give back exactly. */
    before: FleetFiles;
    /** The port after every one the fleet files used before them: the first's. */
    port: number;
    created: RunResult;
    afterCreated: string[];
    createdMcp: RunResult;
    afterCreatedMcp: string[];
  };
  const wall = Date.now();
  const fail = (outcome: Outcome, step: Step, why: string) => {
    outcome.failures.push({ step, why: why.slice(-4000) });
  };
  const failed = (outcome: Outcome, ...steps: Step[]) =>
    outcome.failures.some((failure) => steps.includes(failure.step));

  beforeAll(async () => {
    repo = copyRepo("openapi-corpus-");
    // Generated one after the other: each registers its agent in the same fleet files.
    for (const entry of CORPUS) {
      const agent = agentNameOf(entry);
      const outcome: Outcome = { entry, agent, dir: join(repo, "agents", agent), ms: {}, failures: [] };
      outcomes.set(entry.name, outcome);
      const made = await generate(repo, entry, STEP_TIMEOUT);
      outcome.ms.generate = made.ms;
      if (made.code !== 0) fail(outcome, "generate", made.output);
      else linkInstalledDependencies(outcome.dir);
    }
    // The generator's own cases, in the same copy: its end-to-end test, without a copy of its own.
    for (const { name, file } of GENERATOR_CASES) {
      const outcome: CaseOutcome = { name, dir: join(repo, "agents", name), failures: [], passed: 0 };
      cases.set(name, outcome);
      const made = await generateCase(repo, name, file);
      if (made.code !== 0) outcome.failures.push(`generate: ${made.output}`);
      else {
        const differs = dependenciesDiffer(outcome.dir);
        // What a `pnpm install` of the new package would resolve is what the workspace installed.
        if (differs) outcome.failures.push(`install: ${differs}`);
        else linkInstalledDependencies(outcome.dir);
      }
    }
    // pnpm new-agent's own cases, after every other agent.
    newAgents.before = fleetFiles(repo);
    newAgents.port =
      Math.max(
        ...Object.values(parse(newAgents.before.chart).agents as Record<string, { port: number }>).map(
          ({ port }) => port,
        ),
      ) + 1;
    newAgents.created = await run(
      process.execPath,
      [CREATE_AGENT, "new", NEW_AGENT.name, "--root", repo, "--description", NEW_AGENT.description],
      { cwd: repo, timeoutMs: STEP_TIMEOUT },
    );
    newAgents.afterCreated = checkFleet(repo);
    newAgents.createdMcp = await run(
      process.execPath,
      [CREATE_AGENT, "new", MCP_AGENT.name, "--root", repo, "--mcp-command", memoryServerCommand()],
      { cwd: repo, timeoutMs: STEP_TIMEOUT },
    );
    newAgents.afterCreatedMcp = checkFleet(repo);
    for (const [name, made] of [
      [NEW_AGENT.name, newAgents.created],
      [MCP_AGENT.name, newAgents.createdMcp],
    ] as const) {
      const outcome: CaseOutcome = { name, dir: join(repo, "agents", name), failures: [], passed: 0 };
      cases.set(name, outcome);
      if (made.code !== 0) outcome.failures.push(`generate: ${made.output}`);
      else {
        // No installed package declares the same list (the corpus's have agents/petstore's).
        try {
          linkDeclaredDependencies(outcome.dir);
        } catch (error) {
          outcome.failures.push(`install: ${(error as Error).message}`);
        }
      }
    }
    fleetProblems = checkFleet(repo);
    const generated = [...outcomes.values()].filter((outcome) => !failed(outcome, "generate"));
    const madeCases = [...cases.values()].filter((outcome) => outcome.failures.length === 0);
    // Built two at a time, each with its own build script (tsc and the agent's bundle); the
    // generator's cases are typechecked (their tests too) in the same pass.
    const jobs: Array<() => Promise<void>> = [
      ...generated.map((outcome) => async () => {
        const built = await run("pnpm", ["run", "build"], { cwd: outcome.dir, timeoutMs: STEP_TIMEOUT });
        outcome.ms.build = built.ms;
        if (built.code !== 0) fail(outcome, "build", built.output);
      }),
      ...madeCases.flatMap((outcome) =>
        ["build", "typecheck"].map((script) => async () => {
          const done = await run("pnpm", ["run", script], { cwd: outcome.dir, timeoutMs: STEP_TIMEOUT });
          if (done.code !== 0) outcome.failures.push(`${script}: ${done.output}`);
        }),
      ),
    ];
    await inParallel(jobs, 2, (job) => job());
    if (madeCases.length > 0) {
      const linted = await run(
        "pnpm",
        ["exec", "biome", "check", ...madeCases.map(({ name }) => `agents/${name}`)],
        { cwd: repo, timeoutMs: STEP_TIMEOUT },
      );
      if (linted.code !== 0) for (const outcome of madeCases) outcome.failures.push(`lint: ${linted.output}`);
    }
    // Their own tests, untouched, in one vitest process (one start-up, one MongoDB set-up).
    const built = generated.filter((outcome) => !failed(outcome, "build"));
    const builtCases = madeCases.filter((outcome) => outcome.failures.length === 0);
    const projects = [
      ...built.map((outcome) => `agents/${outcome.agent}`),
      ...builtCases.map(({ name }) => `agents/${name}`),
    ];
    if (projects.length > 0) {
      const config = join(repo, "vitest.corpus.config.ts");
      writeFileSync(
        config,
        `import { defineConfig } from "vitest/config";\nexport default defineConfig({ test: { projects: ${JSON.stringify(
          projects,
        )} } });\n`,
      );
      const report = join(repo, ".corpus", "vitest.json");
      const tested = await run(
        process.execPath,
        [
          join(repoRoot, "node_modules/vitest/vitest.mjs"),
          "run",
          "--config",
          config,
          "--reporter=json",
          `--outputFile=${report}`,
          // Two suites at once, as two packages' tests run beside each other in npm test (each has
          // its own database, ports and processes): one at a time, these twelve suites made this
          // file the longest task of the whole run, the last to end.
          "--maxWorkers=2",
        ],
        // Every test of theirs: npm test's unit run never saw these packages, so its
        // integration-only setting (INTEGRATION_ONLY_ENV) is not passed on.
        {
          cwd: repo,
          env: { MONGODB_URI: testMongoUri(), [INTEGRATION_ONLY_ENV]: undefined },
          timeoutMs: STEP_TIMEOUT * 2,
        },
      );
      const results = readReport(report);
      for (const outcome of built) {
        outcome.ms["own tests"] = tested.ms;
        const mine = results.filter((file) => file.name.startsWith(`${outcome.dir}/`));
        const failed = mine.filter((file) => file.status !== "passed");
        if (mine.length === 0) fail(outcome, "own tests", `no test file ran:\n${tested.output}`);
        else if (failed.length > 0)
          fail(outcome, "own tests", failed.map((file) => `${file.name}: ${file.message}`).join("\n"));
      }
      for (const outcome of builtCases) {
        const mine = results.filter((file) => file.name.startsWith(`${outcome.dir}/`));
        outcome.passed = mine.reduce((sum, file) => sum + file.passed, 0);
        const unpassed = mine.filter((file) => file.status !== "passed" || file.unpassed > 0);
        if (mine.length === 0) outcome.failures.push(`own tests: no test file ran:\n${tested.output}`);
        for (const file of unpassed)
          outcome.failures.push(`own tests: ${file.name} (${file.unpassed} not passed): ${file.message}`);
      }
    }
  }, STEP_TIMEOUT * 6);

  afterAll(() => {
    const rows = [...outcomes.values()].map(
      (outcome) =>
        `${outcome.entry.name}: ${
          outcome.failures.length > 0
            ? outcome.failures.map(({ step, why }) => `fails at ${step}: ${why.slice(0, 400)}`).join("\n  ")
            : "passes"
        } (read's credential: ${outcome.sent ?? "not reached"}) ${JSON.stringify(outcome.ms)}`,
    );
    for (const outcome of cases.values())
      rows.push(
        `${outcome.name} (${GENERATOR_CASES.some(({ name }) => name === outcome.name) ? "the generator's case" : "pnpm new-agent's case"}): ${outcome.failures.length > 0 ? outcome.failures.map((why) => why.slice(0, 400)).join("\n  ") : `passes (${outcome.passed} tests)`}`,
      );
    console.log(`OpenAPI corpus, ${Math.round((Date.now() - wall) / 1000)} s:\n${rows.join("\n")}`);
    if (repo) rmSync(repo, { recursive: true, force: true });
  });

  describe("against the fake made from each description", () => {
    const dbName = uniqueDbName("openapi_corpus");
    let llm: ScriptedLlm;
    let mongo: MongoClient;
    const agents: AgentProcess[] = [];

    beforeAll(async () => {
      [llm, mongo] = await Promise.all([
        startScriptedLlm({
          script: rules(
            [
              {
                lastUser: /^call (\w+) (\{.*\})$/s,
                reply: (_r, { match }) => callTool(match?.[1] ?? "", JSON.parse(match?.[2] ?? "{}")),
              },
              { afterTool: true, reply: replyFromToolResult() },
            ],
            say("I call the API's operations."),
          ),
        }),
        MongoClient.connect(testMongoUri()),
      ]);
    });
    afterAll(async () => {
      await Promise.all(agents.splice(0).map((agent) => agent.kill("SIGTERM")));
      await mongo?.db(dbName).dropDatabase();
      await Promise.all([mongo?.close(), llm?.close()]);
    });

    /** Runs the read and the change of one description; the outcome records the first failure. */
    async function exercise(outcome: Outcome): Promise<void> {
      const { entry } = outcome;
      const read = await readDescription(sourceFileIn(repo, entry));
      let plan: Exercise;
      try {
        plan = await exerciseOf(read, entry, outcome.dir, envPrefixFor(outcome.agent));
      } catch (error) {
        return fail(outcome, "read", `no read or change to try: ${(error as Error).message}`);
      }
      const fake = await startOpenApiFake({
        vendor: entry.name,
        document: read.document as never,
        apiRoot: plan.apiRoot,
        credentials: plan.credentials,
      });
      try {
        const started = Date.now();
        const agent = await startAgentProcess(outcome.dir, {
          env: { ...NO_GRACE, ...testMongoEnv(dbName), ...llm.env, ...plan.env(fake.url) },
        });
        agents.push(agent);
        const connection = await connectAgent(agent.url);
        const said = await connection.send({ text: plan.read.prompt, contextId: `${outcome.agent}-read` });
        const readCall = fake.received.find((call) => plan.read.matches(call));
        if (said.state !== "completed" || !readCall)
          return fail(outcome, "read", `${said.state}: ${said.text ?? ""}`);
        if (!sentAsSaid(readCall, plan.read.scheme))
          return fail(outcome, "read", `credential sent as ${JSON.stringify(readCall)}`);
        outcome.sent =
          readCall.credentials.map(({ scheme, how }) => `${scheme} (${how})`).join(", ") || "none";
        outcome.ms.read = Date.now() - started;

        const changeStarted = Date.now();
        const contextId = `${outcome.agent}-change`;
        const asked = await connection.send({ text: plan.change.prompt, contextId });
        const before = fake.received.filter((call) => plan.change.matches(call)).length;
        if (asked.state !== "input-required" || before !== 0)
          return fail(outcome, "change", `not asked first: ${asked.state}: ${asked.text ?? ""}`);
        const done = await connection.send({ text: "yes", contextId, taskId: asked.taskId });
        const changes = fake.received.filter((call) => plan.change.matches(call));
        if (done.state !== "completed" || changes.length !== 1)
          return fail(outcome, "change", `${done.state} with ${changes.length} changes: ${done.text ?? ""}`);
        if (!changes[0] || !sentAsSaid(changes[0], plan.change.scheme))
          return fail(outcome, "change", `credential sent as ${JSON.stringify(changes[0])}`);
        outcome.ms.change = Date.now() - changeStarted;
        await agent.kill("SIGTERM");
      } finally {
        await fake.close();
      }
    }

    it(
      "reads, and changes once after yes, sending the credential as each scheme says",
      async () => {
        const ready = [...outcomes.values()].filter((outcome) => !failed(outcome, "generate", "build"));
        await inParallel(ready, 2, (outcome) =>
          exercise(outcome).catch((error: Error) => fail(outcome, "read", error.stack ?? error.message)),
        );
      },
      STEP_TIMEOUT,
    );
  });

  it("every agent made is registered in the fleet files as checkFleet reads them", () => {
    expect(fleetProblems).toEqual([]);
  });

  it.each(GENERATOR_CASES.map(({ name }) => [name]))(
    "the generator's case %s: generated, installs, builds, lints, typechecks and passes its own tests unedited",
    (name) => {
      const outcome = cases.get(name);
      expect(outcome, "the set-up never reached it").toBeDefined();
      expect(outcome?.failures).toEqual([]);
      expect(outcome?.passed).toBeGreaterThanOrEqual(MIN_GENERATED_TESTS);
    },
  );

  it.each(CORPUS.map((entry) => [entry.name, entry] as const))(
    "%s: generated, built, its own tests pass, one read and one change",
    (name) => {
      const outcome = outcomes.get(name);
      expect(outcome, "the set-up never reached it").toBeDefined();
      const first = outcome?.failures[0];
      const known = KNOWN[name];
      if (known)
        expect(
          first?.step,
          `${name} was known to fail at ${known.step} (${known.because}); it now ${
            first ? `fails at ${first.step}: ${first.why}` : "passes: take it out of known.ts"
          }`,
        ).toBe(known.step);
      else expect(first, first?.why).toBeUndefined();
    },
  );

  describe("pnpm new-agent's own cases (new-agent-cases.ts)", () => {
    const read = (file: string) => readFileSync(join(repo, file), "utf8");
    const packageOf = (name: string) => `@switchboard/agent-${name}`;

    it("makes an API agent on the next free port, registered in every fleet file", () => {
      const { created, port } = newAgents;
      expect(created.code, created.output).toBe(0);
      expect(created.output).toContain(
        `Created agents/${NEW_AGENT.name} (${packageOf(NEW_AGENT.name)}) on port ${port}`,
      );
      expect(created.output).toContain("Next steps:");
      expect(newAgents.afterCreated).toEqual([]);
      expect(read("docker-compose.dev.yaml")).toContain(
        '  agent-status-page:\n    profiles: ["status-page", "all-agents"]',
      );
      expect(read(".env.example")).toContain("STATUS_PAGE_API_URL=\nSTATUS_PAGE_API_TOKEN=\n");
      const chart = parse(read("charts/switchboard/values.yaml"));
      expect(chart.agents[NEW_AGENT.name]).toEqual({
        enabled: true,
        port,
        env: { STATUS_PAGE_API_URL: "" },
        secretKeys: ["STATUS_PAGE_API_TOKEN"],
      });
      expect(chart.secrets.values).toHaveProperty("STATUS_PAGE_API_TOKEN", "");
    });

    it("makes an agent whose tools come from an MCP server's command (--mcp-command), on the port after", () => {
      const { createdMcp, port } = newAgents;
      expect(createdMcp.code, createdMcp.output).toBe(0);
      expect(createdMcp.output).toContain(`its tools from the MCP server "${MCP_AGENT.name}"`);
      expect(newAgents.afterCreatedMcp).toEqual([]);
      expect(read(`agents/${MCP_AGENT.name}/src/agent.ts`)).toContain(
        `"${MCP_AGENT.name}": {\n      command: "${process.execPath}",`,
      );
      expect(read(".env.example")).toContain("TEAM_MEMORY_MCP_SERVERS=\n");
      expect(parse(read("charts/switchboard/values.yaml")).agents[MCP_AGENT.name]).toEqual({
        enabled: true,
        port: port + 1,
      });
      expect(existsSync(join(repo, "agents", MCP_AGENT.name, "src", "client.ts"))).toBe(false);
    });

    it.each([NEW_AGENT, MCP_AGENT].map((agent) => [agent.name, agent] as const))(
      "%s: installs its declared dependencies, builds, lints, typechecks and passes all its own tests unedited",
      (name, { tests }) => {
        const outcome = cases.get(name);
        expect(outcome, "the set-up never reached it").toBeDefined();
        expect(outcome?.failures).toEqual([]);
        expect(outcome?.passed).toBe(tests);
      },
    );

    describe("behind the supervisor", () => {
      const dbName = uniqueDbName("create_agent");
      const processes: AgentProcess[] = [];
      let llm: ScriptedLlm;
      let api: Awaited<ReturnType<typeof startItemsApi>>;
      let mongo: MongoClient;
      const token = `token-${randomUUID()}`;

      beforeAll(async () => {
        [llm, api, mongo] = await Promise.all([
          startScriptedLlm({
            script: rules(
              [
                ...routeByAgentPrefix(),
                { toolOffered: "list_items", lastUser: /^list items$/, reply: callTool("list_items", {}) },
                { afterTool: true, reply: replyFromToolResult() },
              ],
              say("I do not know what to do with that."),
            ),
          }),
          startItemsApi(token),
          MongoClient.connect(testMongoUri()),
        ]);
      });
      afterAll(async () => {
        await Promise.all(processes.splice(0).map((agent) => agent.kill("SIGTERM")));
        await mongo?.db(dbName).dropDatabase();
        await Promise.all([mongo?.close(), llm?.close(), api?.close()]);
      });

      it(
        "is discovered by the supervisor, answers a routed turn with the forwarded contextId, and keeps checkpoints_status-page",
        async () => {
          const { name } = NEW_AGENT;
          expect(existsSync(join(repo, "agents", name, "dist", "index.js"))).toBe(true);
          const common = { ...NO_GRACE, ...testMongoEnv(dbName), ...llm.env };
          const agent = await startAgentProcess(join(repo, "agents", name), {
            env: { ...common, STATUS_PAGE_API_URL: api.url, STATUS_PAGE_API_TOKEN: token },
          });
          processes.push(agent);
          // This checkout's supervisor: new-agent changes none of its files, only its fleet settings.
          const supervisor = await startAgentProcess(join(repoRoot, "agents", "supervisor"), {
            env: { ...common, ENABLE_STATUS_PAGE: "true", STATUS_PAGE_AGENT_URL: agent.url },
          });
          processes.push(supervisor);

          const connection = await connectAgent(supervisor.url);
          const contextId = `conv-${randomUUID()}`;
          let answer = await connection.send({ text: `${name}: list items`, contextId });
          // The supervisor discovers subagents in the background; give it a moment on a slow machine.
          for (let attempt = 0; attempt < 20 && !answer.text?.includes("EU region"); attempt += 1) {
            await new Promise((resolve) => setTimeout(resolve, 500));
            answer = await connection.send({ text: `${name}: list items`, contextId });
          }
          expect(answer.state).toBe("completed");
          expect(answer.text).toContain("7 [open] Status page for the EU region");
          expect(api.requests).toContain("GET /items");

          const db = mongo.db(dbName);
          expect(
            await db.collection(`checkpoints_${name}`).countDocuments({ thread_id: contextId }),
          ).toBeGreaterThan(0);
          expect(
            await db.collection("checkpoints_supervisor").countDocuments({ thread_id: contextId }),
          ).toBeGreaterThan(0);
          expect(await db.collection(`tasks_${name}`).countDocuments({ contextId })).toBeGreaterThan(0);
        },
        STEP_TIMEOUT,
      );
    });

    it(
      "pnpm remove-agent undoes every registration, leaving the fleet files as they were",
      async () => {
        for (const { name } of [NEW_AGENT, MCP_AGENT]) {
          const removed = await run(process.execPath, [CREATE_AGENT, "remove", name, "--root", repo], {
            cwd: repo,
            timeoutMs: STEP_TIMEOUT,
          });
          expect(removed.code, removed.output).toBe(0);
          expect(removed.output).toContain(`Removed agents/${name}`);
          expect(existsSync(join(repo, "agents", name))).toBe(false);
        }
        expect(fleetFiles(repo)).toEqual(newAgents.before);
        expect(checkFleet(repo)).toEqual([]);
      },
      STEP_TIMEOUT,
    );
  });
});

/** The fleet files new-agent registers an agent in, as they are in the copy. */
interface FleetFiles {
  compose: string;
  envExample: string;
  chart: string;
}
function fleetFiles(repo: string): FleetFiles {
  const read = (file: string) => readFileSync(join(repo, file), "utf8");
  return {
    compose: read("docker-compose.dev.yaml"),
    envExample: read(".env.example"),
    chart: read("charts/switchboard/values.yaml"),
  };
}

/** `pnpm new-agent <name> --openapi <file>` for one of the generator's cases, in the copy. */
function generateCase(repo: string, name: string, file: string) {
  return run(
    process.execPath,
    [
      join(repoRoot, "tooling/create-agent/bin/create-agent.js"),
      "new",
      name,
      "--root",
      repo,
      "--openapi",
      join(repo, GENERATOR_DESCRIPTIONS, file),
    ],
    { cwd: repo, timeoutMs: STEP_TIMEOUT },
  );
}

/**
 * Why a generated package's dependencies are not agents/petstore's (the installed ones it is given),
 * or undefined when they are the same: the same list, so an install of the package resolves the
 * same folder the workspace install made.
 */
function dependenciesDiffer(packageDir: string): string | undefined {
  const listed = (dir: string) => {
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    return JSON.stringify({ dependencies: manifest.dependencies, devDependencies: manifest.devDependencies });
  };
  const mine = listed(packageDir);
  const installed = listed(join(repoRoot, "agents", "petstore"));
  return mine === installed ? undefined : `dependencies ${mine} are not agents/petstore's ${installed}`;
}

/** The request carried a valid credential of that scheme and no other (none when there is no scheme). */
function sentAsSaid(request: ReceivedRequest, scheme: string | undefined): boolean {
  if (scheme === undefined) return request.credentials.length === 0;
  return (
    request.credentials.length > 0 && request.credentials.every((one) => one.scheme === scheme && one.valid)
  );
}

interface FileResult {
  name: string;
  status: string;
  message: string;
  /** Its tests that passed, and those that did not (failed, skipped, todo). */
  passed: number;
  unpassed: number;
}

/** vitest's JSON report: each test file, whether it passed, and why not. */
function readReport(path: string): FileResult[] {
  try {
    const report = JSON.parse(readFileSync(path, "utf8")) as {
      testResults: Array<{
        name: string;
        status: string;
        message: string;
        assertionResults: Array<{ status: string; fullName: string; failureMessages: string[] }>;
      }>;
    };
    return report.testResults.map((file) => ({
      name: file.name,
      status: file.status,
      passed: file.assertionResults.filter((test) => test.status === "passed").length,
      unpassed: file.assertionResults.filter((test) => test.status !== "passed").length,
      message: [
        file.message,
        ...file.assertionResults
          .filter((test) => test.status === "failed")
          .map((test) => `${test.fullName}: ${test.failureMessages.join(" ").slice(0, 600)}`),
      ]
        .filter(Boolean)
        .join("\n"),
    }));
  } catch {
    return [];
  }
}
