import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseDocument, type YAMLSeq } from "yaml";

/** CAIPE's git directory (its Python agents' source): CAIPE_GIT_DIR, else the mirror beside the checkout (or its parent's). */
export function caipeGitDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.CAIPE_GIT_DIR) return env.CAIPE_GIT_DIR;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 6; up++, dir = dirname(dir)) {
    const candidate = join(dir, ".mirror", "cnoe-io+ai-platform-engineering", "repo");
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** CAIPE 0.6.0's own `config/app-config.yaml`, kept unchanged beside its licence (fixtures/caipe-0.6.0). */
export const CAIPE_APP_CONFIG = join(
  dirname(fileURLToPath(import.meta.url)),
  "fixtures",
  "caipe-0.6.0",
  "app-config.yaml",
);

/**
 * CAIPE 0.6.0's own `config/app-config.yaml` with its commented examples filled in as a user would
 * (`mcp_servers: []` and `agents: []` opened, their commented items uncommented), then `extra` items
 * added to its lists (or as new lists).
 */
export function caipeAppConfig(
  extra: {
    models?: unknown[];
    mcp_servers?: unknown[];
    agents?: unknown[];
    openapi_sources?: unknown[];
  } = {},
): string {
  const filled = readFileSync(CAIPE_APP_CONFIG, "utf8")
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
