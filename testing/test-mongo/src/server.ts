import { type ChildProcessByStdio, spawn, spawnSync } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";

/** A running mongo-java-server (memory backend) on loopback, reporting MongoDB 6.0 / wire 17. */
export interface TestMongo {
  uri: string;
  port: number;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** How long to wait for the JVM to bind. */
  startTimeoutMs?: number;
}

const packageRoot = dirname(dirname(fileURLToPath(import.meta.url)));
const javaDir = join(packageRoot, "java");

/** Resolves the jars with Maven and compiles the launcher once per change of its sources. */
export function prepareTestMongo(): string {
  const sources = ["pom.xml", "TestMongoServer.java"].map((file) => readFileSync(join(javaDir, file)));
  const stamp = createHash("sha256").update(Buffer.concat(sources)).digest("hex").slice(0, 12);
  const target = join(packageRoot, ".cache", stamp);
  if (existsSync(target)) return target;

  // Build beside the target and rename into place, so parallel test runs never see half a build.
  const staging = `${target}.${randomUUID()}`;
  mkdirSync(staging, { recursive: true });
  try {
    runTool("mvn", [
      "-q",
      "-B",
      "-f",
      join(javaDir, "pom.xml"),
      "dependency:copy-dependencies",
      `-DoutputDirectory=${join(staging, "lib")}`,
    ]);
    runTool("javac", [
      "-cp",
      join(staging, "lib", "*"),
      "-d",
      join(staging, "classes"),
      join(javaDir, "TestMongoServer.java"),
    ]);
    try {
      renameSync(staging, target);
    } catch (error) {
      if (!existsSync(target)) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return target;
}

function runTool(tool: string, args: string[]): void {
  const result = spawnSync(tool, args, { encoding: "utf8" });
  if (result.error && "code" in result.error && result.error.code === "ENOENT") {
    throw new Error(
      `The test MongoDB needs \`${tool}\` (a JDK 17+ and Maven) on PATH. Install them, or set MONGODB_URI to a real MongoDB.`,
    );
  }
  if (result.status !== 0) {
    throw new Error(`\`${tool}\` failed while preparing the test MongoDB:\n${result.stdout}${result.stderr}`);
  }
}

export async function startTestMongo(options: StartOptions = {}): Promise<TestMongo> {
  const built = prepareTestMongo();
  const classpath = [join(built, "lib", "*"), join(built, "classes")].join(
    process.platform === "win32" ? ";" : ":",
  );
  const child = spawn(
    "java",
    [
      "-XX:+UseSerialGC",
      "-Xss512k",
      "-cp",
      classpath,
      "TestMongoServer",
      "127.0.0.1",
      String(options.port ?? 0),
    ],
    { stdio: ["pipe", "pipe", "pipe"] },
  );
  const port = await waitForPort(child, options.startTimeoutMs ?? 30_000);
  return {
    uri: `mongodb://127.0.0.1:${port}/`,
    port,
    stop: () => stopChild(child),
  };
}

type JavaProcess = ChildProcessByStdio<Writable, Readable, Readable>;

function waitForPort(child: JavaProcess, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    const fail = (message: string) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new Error(`${message}${stderr ? `\n${stderr.trim()}` : ""}`));
    };
    const timer = setTimeout(() => fail(`The test MongoDB did not start within ${timeoutMs} ms.`), timeoutMs);
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening (\d+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.on("error", (error) => fail(`Could not start java for the test MongoDB: ${error.message}`));
    child.on("exit", (code) => fail(`The test MongoDB exited during start-up (code ${code}).`));
  });
}

function stopChild(child: JavaProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(killer);
      resolve();
    });
    child.stdin.end();
  });
}
