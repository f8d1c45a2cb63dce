import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The vendored TCK (kit/README.md says which commit, and what was left out). */
export const KIT_DIR = join(import.meta.dirname, "..", "kit");

/** One category as the TCK's own runner (run_tck.py) selects it: a folder, and a marker expression. */
export interface KitCategory {
  path: string;
  markers?: string;
}

/** run_tck.py's `mandatory` (JSON-RPC's own cases only when JSON-RPC is asked) and `capabilities`. */
export const CATEGORIES: Record<string, KitCategory> = {
  mandatory: { path: "tests/mandatory/", markers: "mandatory or mandatory_protocol" },
  capabilities: { path: "tests/optional/capabilities/" },
};

export interface KitTest {
  nodeid: string;
  outcome: "passed" | "failed" | "skipped" | "error" | "xfailed" | "xpassed";
  /** Why it failed or skipped, as pytest wrote it. */
  why: string;
}

interface JsonReport {
  tests: Array<{
    nodeid: string;
    outcome: KitTest["outcome"];
    setup?: { longrepr?: string };
    call?: { longrepr?: string; crash?: { message?: string } };
  }>;
}

export interface RunKitOptions {
  python: string;
  /** The agent's base URL: the TCK reads its card there, then speaks gRPC where the card says. */
  sutUrl: string;
  category: KitCategory;
  deselect: readonly string[];
  /** Where pytest-json-report writes (a scratch folder). */
  reportFile: string;
  timeoutMs: number;
}

/**
 * Runs one category of the TCK over gRPC (`--transports grpc`, gRPC preferred) and reads its JSON
 * report. pytest exits non-zero when a test fails: the report, not the exit code, is the answer.
 */
export async function runKit(options: RunKitOptions): Promise<KitTest[]> {
  const { category } = options;
  const args = [
    "-m",
    "pytest",
    category.path,
    `--sut-url=${options.sutUrl}`,
    "--test-scope=all",
    "--transport-strategy=prefer_grpc",
    "--transports=grpc",
    "-p",
    "no:cacheprovider",
    "-q",
    "--json-report",
    `--json-report-file=${options.reportFile}`,
    ...(category.markers ? ["-m", category.markers] : []),
    ...options.deselect.flatMap((nodeid) => ["--deselect", nodeid]),
  ];
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(options.python, args, {
      cwd: KIT_DIR,
      // The kit reads no settings of ours; nothing of it lands in the repository (no .pyc, no cache).
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PYTHONDONTWRITEBYTECODE: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let text = "";
    child.stdout.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      // 0: all passed, 1: some failed; anything else is the kit not running (usage, collection).
      if (code === 0 || code === 1) resolve(text);
      else reject(new Error(`The TCK did not run (pytest exit ${code}):\n${text.slice(-4000)}`));
    });
  });
  let report: JsonReport;
  try {
    report = JSON.parse(readFileSync(options.reportFile, "utf8")) as JsonReport;
  } catch (error) {
    throw new Error(`The TCK wrote no report (${String(error)}):\n${output.slice(-4000)}`);
  }
  return report.tests.map((test) => ({
    nodeid: test.nodeid,
    outcome: test.outcome,
    why: test.call?.crash?.message ?? test.call?.longrepr ?? test.setup?.longrepr ?? "",
  }));
}
