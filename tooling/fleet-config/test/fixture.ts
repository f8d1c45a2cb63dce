import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { listFleetPackages } from "@switchboard/contract";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** A throwaway copy of the fleet files and the agent packages' manifests, for breaking on purpose. */
export function fleetFixture(): {
  root: string;
  edit(path: string, change: (text: string) => string): void;
  cleanup(): void;
} {
  const root = mkdtempSync(join(tmpdir(), "fleet-config-"));
  for (const file of [
    "docker-compose.dev.yaml",
    ".env.example",
    "Dockerfile",
    "package.json",
    "pnpm-workspace.yaml",
    "charts/switchboard/values.yaml",
    "tools/fleet/config/app-config.yaml",
  ]) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    cpSync(join(repoRoot, file), join(root, file));
  }
  for (const agent of listFleetPackages(repoRoot)) {
    mkdirSync(join(root, "agents", agent.folder, "src"), { recursive: true });
    cpSync(
      join(repoRoot, "agents", agent.folder, "package.json"),
      join(root, "agents", agent.folder, "package.json"),
    );
    // A host of configured agents has no agent.ts: its agents are made from configuration.
    if (agent.kind === "host") continue;
    cpSync(
      join(repoRoot, "agents", agent.folder, "src", "agent.ts"),
      join(root, "agents", agent.folder, "src", "agent.ts"),
    );
  }
  return {
    root,
    edit(path, change) {
      const file = join(root, path);
      mkdirSync(dirname(file), { recursive: true });
      let text = "";
      try {
        text = readFileSync(file, "utf8");
      } catch {
        // a new file
      }
      writeFileSync(file, change(text));
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}
