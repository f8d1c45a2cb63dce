import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { READY_CHANNEL_ENV, readyMessage } from "@switchboard/contract";
import { type OtlpReceiver, startOtlpReceiver } from "@switchboard-testing/otlp-receiver";
import { startTestMongo, type TestMongo } from "@switchboard-testing/test-mongo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../test/fixture.js";
import { readComposeFile } from "./compose.js";
import { readDockerfile } from "./dockerfile.js";

// No Docker engine here: run the Dockerfile's build-stage RUN lines in a copy of the build context
// (what `docker build` would COPY), for one agent, and start what `pnpm deploy` produced.
const AGENT = "jira";
// Generous: under a full parallel `npm test` on 2 cores, turbo's build of the agent alone took 3m44s.
const RUN_TIMEOUT_MS = 600_000;

let work: string;
let out: string;
let agent: ChildProcess | undefined;
let mongo: TestMongo | undefined;
let receiver: OtlpReceiver | undefined;
const runSeconds: Record<string, number> = {};

function copyContext(target: string): void {
  // Tracked and new files, minus what .gitignore excludes (node_modules, dist, .env, ...), as .dockerignore does.
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: repoRoot,
    maxBuffer: 64 * 1024 * 1024,
  })
    .toString()
    .split("\0")
    .filter(Boolean);
  for (const file of files) {
    const source = join(repoRoot, file);
    if (!existsSync(source)) continue; // deleted in the work tree, not yet in git
    mkdirSync(dirname(join(target, file)), { recursive: true });
    copyFileSync(source, join(target, file));
  }
}

/**
 * Puts the pnpm that runs this test first on PATH (under `pnpm test`, npm_execpath is its entry
 * script), so the RUN lines' `pnpm` is the pinned one even when no pnpm is installed globally.
 */
function pnpmOnPath(dir: string): void {
  const entry = process.env.npm_execpath;
  if (!entry || !/pnpm\.c?js$/.test(entry)) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "pnpm"), `#!/bin/sh\nexec "${process.execPath}" "${entry}" "$@"\n`);
  chmodSync(join(dir, "pnpm"), 0o755);
  process.env.PATH = `${dir}:${process.env.PATH ?? ""}`;
}

function pnpmStoreDir(): string {
  // `pnpm store path` ends in the store layout version (v10); --store-dir takes its parent.
  return dirname(execFileSync("pnpm", ["store", "path"], { cwd: repoRoot }).toString().trim());
}

function runBuildStage(context: string): void {
  const build = readDockerfile(repoRoot).find((stage) => stage.name === "build");
  if (!build) throw new Error("Dockerfile has no build stage");
  const pnpmVersion = execFileSync("pnpm", ["--version"]).toString().trim();
  expect(pnpmVersion, "pnpm on PATH must be the Dockerfile's PNPM_VERSION").toBe(
    build.args.get("PNPM_VERSION"),
  );
  const env = {
    ...process.env,
    ...Object.fromEntries(build.args),
    ...Object.fromEntries(build.env),
    AGENT,
    // The store is a cache mount in the image, so sharing this machine's is faithful (and fast) ...
    PNPM_STORE_DIR: pnpmStoreDir(),
    // ... but pnpm's metadata cache is not: a clean `docker build` starts without one, and pnpm fetch
    // fills only the store. An empty one here keeps a warm machine from hiding a RUN line that needs
    // metadata offline (as `deploy --legacy --offline` did: ERR_PNPM_NO_OFFLINE_META on a fresh machine).
    npm_config_cache_dir: join(work, "pnpm-cache"),
    // turbo's cache is a cache mount as well: this checkout's, where the suite's own build put the
    // agent's packages (tooling/fleet-config/turbo.json has this test wait for that build), so the
    // RUN line restores them, as a rebuilt image does, instead of compiling them all again.
    TURBO_CACHE_DIR: join(repoRoot, ".turbo", "cache"),
  };
  for (const run of build.runs) {
    // Installing pnpm itself is the image's business; here the pinned pnpm is already on PATH.
    if (/^npm install --global/.test(run)) continue;
    const command = run.replace(/(^|\s)\/out(?=\s|$)/g, `$1${out}`);
    const started = Date.now();
    try {
      execFileSync("sh", ["-ec", command], { cwd: context, env, stdio: "pipe", timeout: RUN_TIMEOUT_MS });
      runSeconds[command.slice(0, 60)] = Math.round((Date.now() - started) / 1000);
    } catch (error) {
      const failed = error as { stderr?: Buffer; stdout?: Buffer; message: string };
      const seconds = Math.round((Date.now() - started) / 1000);
      throw new Error(
        `Dockerfile build stage failed after ${seconds} s (limit ${RUN_TIMEOUT_MS / 1000} s) on RUN ${command.slice(0, 160)}: ${failed.message}\n${failed.stdout?.toString().slice(-3000) ?? ""}\n${failed.stderr?.toString().slice(-3000) ?? ""}`,
      );
    }
  }
}

function packagesIn(dir: string): string[] {
  return existsSync(join(dir, "node_modules", ".pnpm"))
    ? readdirSync(join(dir, "node_modules", ".pnpm"))
    : [];
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "fleet-docker-"));
  out = join(work, "out");
  const context = join(work, "context");
  pnpmOnPath(join(work, "bin"));
  copyContext(context);
  runBuildStage(context);
}, RUN_TIMEOUT_MS * 3);

async function stopAgent(): Promise<void> {
  if (agent && agent.exitCode === null) {
    const exited = new Promise((resolve) => agent?.once("exit", resolve));
    agent.kill("SIGTERM");
    await exited;
  }
}

/** Starts what pnpm deploy produced, as the image's CMD does; resolves once it says it is ready. */
async function startDeployed(env: Record<string, string>): Promise<{ port: number; log: () => string }> {
  const child = spawn(process.execPath, ["dist/index.js"], {
    cwd: out,
    env: {
      PATH: process.env.PATH,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      [READY_CHANNEL_ENV]: "ipc",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  agent = child;
  let log = "";
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on("data", (chunk: Buffer) => {
      log += chunk.toString();
    });
  }
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`agent did not start in 30 s:\n${log}`)), 30_000);
    // The deployed package says it is ready as the runtime does: its dependencies came along.
    child.on("message", (message) => {
      const ready = readyMessage(message);
      if (!ready) return;
      clearTimeout(timer);
      resolve(ready.port);
    });
    child.once("exit", (code) => reject(new Error(`agent exited with ${code}:\n${log}`)));
  });
  return { port, log: () => log };
}

afterAll(async () => {
  console.log("build stage RUN durations (s):", runSeconds);
  await stopAgent();
  await mongo?.stop();
  await receiver?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe(`the Dockerfile for AGENT=${AGENT}`, () => {
  it("deploys the built agent with its runtime dependencies and no dev dependencies", () => {
    expect(existsSync(join(out, "dist", "index.js"))).toBe(true);
    for (const dependency of ["jira.js", "zod", "@switchboard/agent-runtime"]) {
      expect(existsSync(join(out, "node_modules", dependency)), dependency).toBe(true);
    }
    // The runtime's own workspace dependencies come with it, beside it in pnpm's store.
    const runtime = realpathSync(join(out, "node_modules", "@switchboard", "agent-runtime"));
    expect(existsSync(join(runtime, "..", "utils", "dist", "index.js")), "@switchboard/utils").toBe(true);
    const installed = packagesIn(out);
    expect(installed.some((name) => name.startsWith("@langchain+core@"))).toBe(true);
    expect(
      installed.filter((name) => /^(vitest|tsx|typescript|@switchboard\+(test|fake)-)/.test(name)),
    ).toEqual([]);
    expect(existsSync(join(out, "node_modules", "@switchboard", "fake-jira"))).toBe(false);
  });

  it("starts with node dist/index.js and answers /health, offline and in memory", async () => {
    const { port, log } = await startDeployed({});
    // Its log says how it runs (the ready message can overtake the log line on the pipe).
    await expect.poll(log).toContain("agent ready");
    expect(log()).toContain("offline mode");
    expect(log()).toContain('"checkpoints":"memory"');
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok", agent: AGENT });
    // The compose healthcheck, pointed at this port, passes: the agent is ready (in-memory checkpointer).
    const test = readComposeFile(repoRoot).document.services?.[`agent-${AGENT}`]?.healthcheck?.test;
    const [, command = "", ...args] = Array.isArray(test) ? test : [];
    expect(command).toBe("node");
    execFileSync(
      process.execPath,
      args.map((arg) => arg.replace(/127\.0\.0\.1:\d+\//, `127.0.0.1:${port}/`)),
      { timeout: 10_000 },
    );
    const card = (await (await fetch(`http://127.0.0.1:${port}/.well-known/agent-card.json`)).json()) as {
      name: string;
    };
    expect(card.name.toLowerCase()).toContain(AGENT);
  });

  it("loads what its bundle leaves out from the deployed node_modules: MongoDB, Cedar, OpenTelemetry", async () => {
    await stopAgent();
    mongo = await startTestMongo();
    receiver = await startOtlpReceiver();
    const { port, log } = await startDeployed({
      LANGGRAPH_CHECKPOINT_MONGODB_URI: mongo.uri,
      // CAIPE's roles compile to Cedar policies at start.
      AUTH_MODE: "jwt",
      AUTH_JWKS_URL: "http://127.0.0.1:9/jwks",
      AUTH_ISSUER: "https://idp.example",
      AUTH_AUDIENCE: "switchboard",
      // A signed-in deployment keys its audit trail (the agent refuses to start without it).
      AUDIT_HMAC_KEY: randomBytes(32).toString("hex"),
      RBAC_ADMIN_GROUPS: "platform-admins",
      ...receiver.env,
    });
    await expect.poll(log).toContain("agent ready");
    expect(log()).toContain(`"checkpoints":"switchboard.checkpoints_${AGENT}"`);
    expect(log()).not.toMatch(/"level":(50|60)|"level":"(error|fatal)"/);
    // The SDK's HTTP instrumentation traces a request, and exports it.
    expect((await fetch(`http://127.0.0.1:${port}/.well-known/agent-card.json`)).status).toBe(200);
    await receiver.waitFor((spans) => spans.some((span) => span.scope.includes("instrumentation-http")));
  });
});
