import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * `pnpm new-agent`'s own end-to-end cases (what create-agent's new-agent.int.test.ts did in a copy,
 * with two installs and a build, of its own): an agent from the plain template, which calls an API,
 * and one whose tools come from a published MCP server (`--mcp-command`). The corpus test makes them
 * in its copy after the corpus and the generator's cases, so that removing them (its last test) must
 * leave the fleet files exactly as they were before them; each is given exactly the dependencies it
 * declares, built, linted, typechecked, and passes its own tests unedited, all of them.
 */
export const NEW_AGENT = {
  name: "status-page",
  description: "Reads and updates the company status page",
  /** Its generated tests: the conformance suite and its own. */
  tests: 9,
} as const;
export const MCP_AGENT = { name: "team-memory", tests: 3 } as const;

/** The published memory server (npm @modelcontextprotocol/server-memory) as this Node runs it. */
export function memoryServerCommand(): string {
  const require = createRequire(import.meta.url);
  const script = join(
    dirname(require.resolve("@modelcontextprotocol/server-memory/package.json")),
    "dist",
    "index.js",
  );
  return `"${process.execPath}" "${script}"`;
}
