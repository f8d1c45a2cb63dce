import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * DocumentDB (MongoDB-compatible, on PostgreSQL) for the tests mongo-java-server cannot serve: real
 * TTL expiry, indexes, transactions. Its scripts live in the `shared` checkout beside the repository
 * (`../shared/tools/documentdb`, see its README); machines without it run no DocumentDB tests.
 */
export interface TestDocumentDb {
  uri: string;
  stop(): Promise<void>;
}

/** Overrides where the scripts are looked for (a path that does not exist turns DocumentDB off). */
export const DOCUMENTDB_TOOLS_ENV = "SWITCHBOARD_DOCUMENTDB_TOOLS";

const packageRoot = dirname(dirname(fileURLToPath(import.meta.url)));

/** The repository root: the nearest folder above this package holding pnpm-workspace.yaml. */
export function repositoryRoot(): string {
  for (let dir = packageRoot; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "pnpm-workspace.yaml"))) return dir;
    if (dirname(dir) === dir) throw new Error(`No pnpm-workspace.yaml above ${packageRoot}.`);
  }
}

/** `../shared/tools/documentdb` from the repository root (not the cwd), unless overridden. */
export function documentDbToolsDir(env: NodeJS.ProcessEnv = process.env): string {
  const override = env[DOCUMENTDB_TOOLS_ENV];
  if (override) return resolve(override);
  return resolve(repositoryRoot(), "..", "shared", "tools", "documentdb");
}

/** Why DocumentDB cannot be started from `toolsDir`, or undefined when its scripts are there. */
export function documentDbAbsence(
  toolsDir: string,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  if (existsSync(join(toolsDir, "start.sh"))) return undefined;
  const source = env[DOCUMENTDB_TOOLS_ENV] ? ` (${DOCUMENTDB_TOOLS_ENV})` : " beside the repository";
  return `no DocumentDB scripts at ${toolsDir}${source}`;
}

export interface StartDocumentDbOptions {
  toolsDir?: string;
  /** start.sh installs the engine on first use (apt-get, ~20 s), then starts it in ~3 s. */
  startTimeoutMs?: number;
}

/**
 * Starts a DocumentDB of its own (PostgreSQL + gateway on free loopback ports, state in a temporary
 * folder) with the shared scripts. Throws with start.sh's own output when it fails.
 */
export async function startDocumentDb(options: StartDocumentDbOptions = {}): Promise<TestDocumentDb> {
  const toolsDir = options.toolsDir ?? documentDbToolsDir();
  const absent = documentDbAbsence(toolsDir);
  if (absent) throw new Error(`Cannot start DocumentDB: ${absent}.`);
  const stateDir = mkdtempSync(join(tmpdir(), "switchboard-documentdb-"));
  const stopScript = join(toolsDir, "stop.sh");
  const stopSync = () => {
    spawnSync(stopScript, [stateDir, "--rm"], { stdio: "ignore", timeout: 30_000 });
    rmSync(stateDir, { recursive: true, force: true });
  };
  // A run that ends without its teardown (an error, process.exit) must not leave PostgreSQL behind.
  process.once("exit", stopSync);
  try {
    const output = await runStart(join(toolsDir, "start.sh"), stateDir, options.startTimeoutMs ?? 300_000);
    const uri = /^mongodb:\/\/\S+$/m.exec(output)?.[0];
    if (!uri) throw new Error(`start.sh printed no MongoDB URI:\n${output}`);
    let stopped = false;
    return {
      uri,
      async stop() {
        if (stopped) return;
        stopped = true;
        process.removeListener("exit", stopSync);
        await new Promise<void>((done) => {
          const child = spawn(stopScript, [stateDir, "--rm"], { stdio: "ignore" });
          child.on("error", () => done());
          child.on("exit", () => done());
        });
        rmSync(stateDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    process.removeListener("exit", stopSync);
    stopSync();
    throw error;
  }
}

/**
 * The URI tests should use. DocumentDB's gateway sometimes resets a connection that is set up while
 * another one is (about 1 in 40 bursts of a new client's pool), and driver 7 surfaces that as a bare
 * `write ECONNRESET` it does not retry, even for retryable reads; one connection set up at a time
 * avoids it.
 */
export function documentDbTestUri(uri: string): string {
  if (/[?&]maxConnecting=/i.test(uri)) return uri;
  if (uri.includes("?")) return `${uri}${uri.endsWith("?") ? "" : "&"}maxConnecting=1`;
  // The options go after the path: `mongodb://host` needs one, `mongodb://host/db` has one.
  return `${uri}${/^mongodb(\+srv)?:\/\/[^/]*$/.test(uri) ? "/" : ""}?maxConnecting=1`;
}

/** Runs start.sh STATE_DIR in a process group of its own, so a timeout can stop all of it. */
function runStart(script: string, stateDir: string, timeoutMs: number): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(script, [stateDir], { stdio: ["ignore", "pipe", "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    const timer = setTimeout(() => {
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
      reject(new Error(`${script} did not print a URI within ${timeoutMs} ms.${tail(stderr)}`));
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`Could not run ${script}: ${error.message}`));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolvePromise(stdout);
      else reject(new Error(`${script} failed (${signal ?? `exit code ${code}`}).${tail(stderr + stdout)}`));
    });
  });
}

function tail(text: string): string {
  const trimmed = text.trim();
  return trimmed ? `\n${trimmed.split("\n").slice(-15).join("\n")}` : "";
}
