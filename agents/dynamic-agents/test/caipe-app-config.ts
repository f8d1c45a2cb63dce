import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseDocument, type YAMLSeq } from "yaml";

/** The CAIPE release whose app-config.yaml the tests serve. */
export const CAIPE_RELEASE = "0.6.0";

/** CAIPE's git directory: CAIPE_GIT_DIR, else the mirror beside the checkout (or its parent's). */
export function caipeGitDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.CAIPE_GIT_DIR) return env.CAIPE_GIT_DIR;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 6; up++, dir = dirname(dir)) {
    const candidate = join(dir, ".mirror", "cnoe-io+ai-platform-engineering", "repo");
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * CAIPE 0.6.0's own `config/app-config.yaml`, read from its repository (never kept here), with its
 * commented examples filled in as a user would (`mcp_servers: []` and `agents: []` opened, their
 * commented items uncommented), then `extra` items added to its lists (or as new lists).
 */
export function caipeAppConfig(
  gitDir: string,
  extra: {
    models?: unknown[];
    mcp_servers?: unknown[];
    agents?: unknown[];
    openapi_sources?: unknown[];
  } = {},
): string {
  const original = execFileSync("git", ["-C", gitDir, "show", `${CAIPE_RELEASE}:config/app-config.yaml`], {
    encoding: "utf8",
  });
  const filled = original
    .replace(/^(mcp_servers|agents): \[\]$/gm, "$1:")
    .replace(/^ {2}# ( {2}|- )/gm, "  $1");
  const doc = parseDocument(filled);
  for (const [key, items] of Object.entries(extra)) {
    const list = doc.get(key) as YAMLSeq | undefined;
    // A list CAIPE's file does not have (Switchboard's openapi_sources) is added whole.
    if (!list) doc.set(key, doc.createNode(items));
    else for (const item of items ?? []) list.add(doc.createNode(item));
  }
  return doc.toString();
}
