import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";

export interface PackageJson {
  name?: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

/**
 * The repository's top folders, each listed in pnpm-workspace.yaml as `<folder>/*`, and what their
 * packages are: shipped (the agents, the libraries they run on, the tools users run), development
 * tooling, or testing (fakes, test servers, suites: private, and never a shipped package's runtime
 * dependency).
 */
export const WORKSPACE_FOLDERS = {
  agents: "shipped",
  packages: "shipped",
  tools: "shipped",
  tooling: "tooling",
  testing: "testing",
} as const;

/** The npm scope of everything under testing/. */
export const TESTING_SCOPE = "@switchboard-testing";

export interface WorkspacePackage {
  /** e.g. `testing/fake-jira` */
  path: string;
  dir: string;
  folder: string;
  manifest: PackageJson;
}

/** The `<folder>/*` globs of pnpm-workspace.yaml, the one list of where packages live. */
export function workspaceFolders(repoRoot: string): string[] {
  const config = parse(readFileSync(join(repoRoot, "pnpm-workspace.yaml"), "utf8")) as {
    packages?: string[];
  };
  return (config.packages ?? []).map((glob) => {
    const folder = /^([a-z-]+)\/\*$/.exec(glob)?.[1];
    if (!folder) throw new Error(`pnpm-workspace.yaml: "${glob}" is not of the form <folder>/*`);
    return folder;
  });
}

/** Every package of the workspace, folder by folder. */
export function workspacePackages(repoRoot: string): WorkspacePackage[] {
  return workspaceFolders(repoRoot).flatMap((folder) => {
    const folderDir = join(repoRoot, folder);
    if (!existsSync(folderDir)) return [];
    return readdirSync(folderDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(folderDir, entry.name, "package.json")))
      .map((entry) => {
        const dir = join(folderDir, entry.name);
        return { path: `${folder}/${entry.name}`, dir, folder, manifest: readPackageJson(dir) };
      });
  });
}

/** Every dependency a package declares, of the given kinds. */
export function declaredDependencies(
  manifest: PackageJson,
  kinds: ReadonlyArray<"dependencies" | "devDependencies" | "peerDependencies" | "optionalDependencies">,
): string[] {
  return kinds.flatMap((kind) => Object.keys(manifest[kind] ?? {}));
}

export function readPackageJson(dir: string): PackageJson {
  return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as PackageJson;
}

/** The tools people run next to the fleet (`npm start`, `pnpm chat`, the web chat, the Slack and Webex relays, the MCP server, the triggers, the knowledge base's RAG server): their settings are documented too. */
const USER_TOOLS = [
  "@switchboard/fleet",
  "@switchboard/cli",
  "@switchboard/web",
  "@switchboard/slack-bot",
  "@switchboard/mcp-server",
  "@switchboard/webex-bot",
  "@switchboard/triggers",
  "@switchboard/rag-server",
];

/**
 * The folders of every workspace package an agent runs with: each agents/* package and, through
 * `dependencies` (not devDependencies), the workspace packages it ships with; plus the user tools.
 * Test servers and tooling stay out, so their variables are not the fleet's.
 */
export function runtimePackageDirs(repoRoot: string): string[] {
  const packages = workspacePackages(repoRoot);
  const byName = new Map(
    packages.map((workspacePackage) => [workspacePackage.manifest.name, workspacePackage]),
  );
  const seen = new Set<string>();
  const visit = ({ dir, manifest }: WorkspacePackage) => {
    if (seen.has(dir)) return;
    seen.add(dir);
    for (const [dep, range] of Object.entries(manifest.dependencies ?? {})) {
      const depPackage = byName.get(dep);
      if (range.startsWith("workspace:") && depPackage) visit(depPackage);
    }
  };
  for (const agent of packages.filter(({ folder }) => folder === "agents")) visit(agent);
  for (const tool of USER_TOOLS) {
    const toolPackage = byName.get(tool);
    if (toolPackage) visit(toolPackage);
  }
  return [...seen].sort();
}
