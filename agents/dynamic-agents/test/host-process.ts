import { renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type AgentProcess, startAgentProcess } from "@switchboard-testing/test-agents";

/** This package's folder: the host is started from its dist/index.js, as the fleet starts it. */
export const hostPackageDir = dirname(dirname(fileURLToPath(import.meta.url)));

/**
 * Starts the host as its own process on a free port (PORT=0), with `env` on top of the test defaults;
 * its gRPC port a free one too (A2A_GRPC_PORT=0) unless `env` names one: PORT + 1000 may be taken.
 */
export function startHost(env: Record<string, string | undefined>): Promise<AgentProcess> {
  return startAgentProcess(hostPackageDir, { env: { A2A_GRPC_PORT: "0", ...env }, timeoutMs: 90_000 });
}

/** The published memory MCP server (npm @modelcontextprotocol/server-memory), run by this Node over stdio. */
export function memoryServerScript(): string {
  const require = createRequire(import.meta.url);
  return join(
    dirname(require.resolve("@modelcontextprotocol/server-memory/package.json")),
    "dist",
    "index.js",
  );
}

/** Writes `text` to `file` at once (a file watcher sees one change). */
export function writeConfig(file: string, text: string): void {
  writeFileSync(`${file}.tmp`, text);
  // A rename is atomic: the watcher never reads half a file.
  renameSync(`${file}.tmp`, file);
}
