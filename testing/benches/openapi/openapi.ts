// pnpm bench:openapi — an agent made with `pnpm new-agent --openapi` from the largest description of
// the OpenAPI corpus (testing/openapi-corpus), as a user makes and runs it, in a copy of the repository:
//   1. generation: the CLI (`create-agent new … --openapi`, this checkout's build) run BENCH_ROUNDS
//      times (default 3; the agent removed between rounds with `create-agent remove`), then its build;
//   2. start-up: the built agent started BENCH_ROUNDS times (`node dist/index.js` with AGENT_NODE_ARGS,
//      against MongoDB — MONGODB_URI if set, else the test MongoDB — the scripted LLM and a fake made
//      from the description), from spawn to its port answering; and its RSS after a first turn and
//      BENCH_SETTLE_SECONDS of quiet (default 30), beside agents/petstore's (8 operations' worth);
//   3. the tool list a model turn carries: its tokens (cl100k) with every operation a tool, and as
//      bounded (openapi-tools' default bound, and with `tags`).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { connectAgent } from "@switchboard/a2a-client";
import { createLogger } from "@switchboard/common";
import { envPrefixFor } from "@switchboard/contract";
import { openApiTools } from "@switchboard/openapi-tools";
import { readDescription } from "@switchboard/openapi-tools/reading";
import { startOpenApiFake } from "@switchboard-testing/fake-vendors";
import {
  agentNameOf,
  apiRootOf,
  copyRepo,
  descriptionOf,
  generate,
  largest,
  linkInstalledDependencies,
  repoRoot,
  run,
  sourceFileIn,
} from "@switchboard-testing/openapi-corpus";
import { type AgentProcess, rssMb, startAgentProcess } from "@switchboard-testing/test-agents";
import { say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { startTestMongo } from "@switchboard-testing/test-mongo";
import { benchReport } from "../src/index.js";

const report = benchReport(new URL("./README.md", import.meta.url), "openapi");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SETTLE_MS = Number(process.env.BENCH_SETTLE_SECONDS ?? 30) * 1000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const seconds = (ms: number) => (ms / 1000).toFixed(2);

async function main(): Promise<void> {
  const entry = largest();
  const agent = agentNameOf(entry);
  const repo = copyRepo("bench-openapi-");
  const work = mkdtempSync(join(tmpdir(), "bench-openapi-"));
  const mongo = process.env.MONGODB_URI ? undefined : await startTestMongo();
  const uri = process.env.MONGODB_URI ?? mongo?.uri ?? "";
  const llm = await startScriptedLlm({ script: () => say("Ready.") });
  const processes: AgentProcess[] = [];
  try {
    // The tool list's tokens (3, first: it needs no process), every operation a tool against the bounded list.
    const tools = await openApiTools({
      document: descriptionOf(entry),
      baseUrl: "http://127.0.0.1:1",
      env: {},
      logger: createLogger({ level: "silent" }),
    });
    const all = tools.toolListTokens({ maxTools: tools.names.length });
    const bounded = tools.toolListTokens({});
    const offered = (options: Parameters<typeof tools.tools>[0]) =>
      tools.tools(options).filter((tool) => tool.offered !== false).length;

    // 1. Generation, then the build.
    const generations: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      if (round > 0) {
        const removed = await run(
          process.execPath,
          [join(repoRoot, "tooling/create-agent/bin/create-agent.js"), "remove", agent, "--root", repo],
          { cwd: repo },
        );
        if (removed.code !== 0) throw new Error(`remove-agent failed:\n${removed.output}`);
      }
      const made = await generate(repo, entry);
      if (made.code !== 0) throw new Error(`new-agent --openapi failed on ${entry.name}:\n${made.output}`);
      generations.push(made.ms);
    }
    const dir = join(repo, "agents", agent);
    linkInstalledDependencies(dir);
    const built = await run("pnpm", ["run", "build"], { cwd: dir });
    if (built.code !== 0) throw new Error(`the generated package's build failed:\n${built.output}`);

    // 2. Start-up and idle RSS, against a fake made from the description.
    const description = await readDescription(sourceFileIn(repo, entry));
    const apiRoot = apiRootOf(description.document);
    const fake = await startOpenApiFake({
      vendor: entry.name,
      document: description.document as never,
      apiRoot,
    });
    const prefix = envPrefixFor(agent);
    const env = {
      MONGODB_URI: uri,
      LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: `bench_openapi_${process.pid}`,
      ...llm.env,
      [`${prefix}_API_URL`]: `${fake.url}${apiRoot}`,
    };
    const starts: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const started = performance.now();
      const one = await startAgentProcess(dir, { env });
      starts.push(performance.now() - started);
      processes.push(one);
      if (round < ROUNDS - 1) await processes.pop()?.kill("SIGTERM");
    }
    const petstore = await startAgentProcess(join(repoRoot, "agents", "petstore"), {
      env: {
        ...env,
        PETSTORE_API_URL: fake.url,
        LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: `bench_petstore_${process.pid}`,
      },
    });
    processes.push(petstore);
    const idle: Record<string, number> = {};
    for (const running of [processes[0], petstore]) {
      if (running) await (await connectAgent(running.url)).send({ text: "hello" });
    }
    await sleep(SETTLE_MS);
    idle[agent] = rssMb([processes[0]?.pid ?? 0]);
    idle.petstore = rssMb([petstore.pid]);
    await fake.close();

    report.print(
      `### ${entry.name}: ${entry.format}, ${entry.operations} operations, ${(entry.bytes / 2 ** 20).toFixed(1)} MB`,
    );
    report.print("");
    report.print("| measure | value |");
    report.print("| --- | --- |");
    report.print(
      `| generation (\`new-agent --openapi\`), median of ${ROUNDS} | ${seconds(median(generations))} s (${generations.map(seconds).join(", ")}) |`,
    );
    report.print(`| the generated package's build (tsc and bundle) | ${seconds(built.ms)} s |`);
    report.print(
      `| start-up, spawn to serving, median of ${ROUNDS} | ${seconds(median(starts))} s (${starts.map(seconds).join(", ")}) |`,
    );
    report.print(
      `| idle RSS after a first turn and ${SETTLE_MS / 1000} s quiet | ${idle[agent]?.toFixed(0)} MB (agents/petstore: ${idle.petstore?.toFixed(0)} MB) |`,
    );
    report.print(
      `| tool list, every operation a tool (${offered({ maxTools: tools.names.length })} tools) | ${all} tokens |`,
    );
    report.print(`| tool list as bounded (${offered({})} tools offered) | ${bounded} tokens |`);
    report.save();
  } finally {
    await Promise.all(processes.map((one) => one.kill("SIGTERM")));
    await llm.close();
    await mongo?.stop();
    rmSync(repo, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
