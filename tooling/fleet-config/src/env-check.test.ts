// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings hold Compose and TypeScript source, ${} included.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fleetFixture, repoRoot } from "../test/fixture.js";
import { checkEnvExample } from "./env-check.js";
import { readEnvExample } from "./env-example.js";
import { type EnvScanCache, scanEnvReads } from "./env-scan.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function sourceTree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "fleet-env-scan-"));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe(".env.example in this repository", () => {
  it("documents every variable the fleet reads, and nothing else", () => {
    expect(checkEnvExample(repoRoot)).toEqual([]);
  });

  it("keeps the checkpoint, compose and authentication/concurrency settings", () => {
    const names = [...readEnvExample(repoRoot).variables.keys()];
    expect(names).toEqual(
      expect.arrayContaining([
        "LANGGRAPH_CHECKPOINT_TYPE",
        "LANGGRAPH_CHECKPOINT_MONGODB_URI",
        "LANGGRAPH_CHECKPOINT_TTL_MINUTES",
        "MONGO_INITDB_ROOT_USERNAME",
        "AUTH_MODE",
        "AUTH_JWKS_URL",
        "AUTH_JWT_SECRET",
        "AUTH_ISSUER",
        "AUTH_AUDIENCE",
        "CONCURRENT_TURN_POLICY",
      ]),
    );
  });
});

describe("the env scanner", () => {
  it("finds reads by each of its rules and ignores tests and lower-case names", () => {
    const root = sourceTree({
      "pkg/src/env.ts": [
        'import { z } from "zod";',
        "const Env = z.object({ FROM_ZOD: z.string(), lowercase_key: z.string() });",
        "export const a = process.env.FROM_PROCESS_ENV;",
        "export function read(env: NodeJS.ProcessEnv, options: { env: NodeJS.ProcessEnv }) {",
        '  return [env.FROM_ENV, env["FROM_ELEMENT"], options.env.FROM_OPTIONS, value(env, "FROM_HELPER"),',
        "    env[`${prefix}_AGENT_URL`], env.npm_package_name, /^ENABLE_([A-Z0-9_]+)$/];",
        "}",
        'parseEnv(Env, env, { code: "x", what: "y", aliases: { FROM_ZOD: ["FROM_ALIAS", "FROM_ZOD"] } });',
      ].join("\n"),
      "pkg/src/env.test.ts": "export const b = process.env.ONLY_IN_TESTS;",
    });
    const reads = scanEnvReads(root, [join(root, "pkg")]);
    expect([...reads.names.keys()].sort()).toEqual([
      "FROM_ALIAS",
      "FROM_ELEMENT",
      "FROM_ENV",
      "FROM_HELPER",
      "FROM_OPTIONS",
      "FROM_PROCESS_ENV",
      "FROM_ZOD",
    ]);
    const patterns = reads.patterns.map((pattern) => pattern.regex);
    expect(patterns.some((regex) => regex.test("JIRA_AGENT_URL"))).toBe(true);
    expect(patterns.some((regex) => regex.test("ENABLE_MY_TOOL"))).toBe(true);
  });
});

describe("checkEnvExample on a changed workspace", () => {
  it("asks to document a variable the code starts reading, naming the file", () => {
    const fixture = fleetFixture();
    cleanups.push(fixture.cleanup);
    fixture.edit(
      "agents/jira/src/extra.ts",
      () => "export const x = (env: NodeJS.ProcessEnv) => env.JIRA_PROJECT_KEY;",
    );
    expect(checkEnvExample(fixture.root)).toContain(
      "agents/jira/src/extra.ts reads JIRA_PROJECT_KEY; document it in .env.example.",
    );
  });

  it("asks to remove a variable nothing reads, and to wire a new agent into the supervisor", () => {
    const fixture = fleetFixture();
    cleanups.push(fixture.cleanup);
    fixture.edit(".env.example", (text) => `${text}# Left over.\nOLD_SETTING=1\n`);
    fixture.edit("agents/my-tool/package.json", () => JSON.stringify({ name: "@switchboard/agent-my-tool" }));
    const problems = checkEnvExample(fixture.root);
    expect(problems.some((problem) => /nothing reads OLD_SETTING/.test(problem))).toBe(true);
    expect(problems).toContain(".env.example: add ENABLE_MY_TOOL (supervisor wiring for agents/my-tool).");
    expect(problems).toContain(".env.example: add MY_TOOL_AGENT_URL (supervisor wiring for agents/my-tool).");
  });

  it("asks for a host's URL variable, and no ENABLE_ wiring for it", () => {
    const fixture = fleetFixture();
    cleanups.push(fixture.cleanup);
    fixture.edit(".env.example", (text) => text.replace(/^DYNAMIC_AGENTS_URL=.*\n/m, ""));
    fixture.edit("agents/more-agents/package.json", () =>
      JSON.stringify({ name: "@switchboard/more-agents", switchboard: { port: 8101, kind: "host" } }),
    );
    const problems = checkEnvExample(fixture.root);
    expect(problems).toContain(
      ".env.example: add DYNAMIC_AGENTS_URL (where the supervisor finds agents/dynamic-agents's agents).",
    );
    expect(problems).toContain(
      ".env.example: add MORE_AGENTS_URL (where the supervisor finds agents/more-agents's agents).",
    );
    expect(problems).toContain(
      ".env.example: add MORE_AGENTS_ENABLED (whether npm start runs agents/more-agents).",
    );
    expect(problems.some((problem) => /ENABLE_MORE_AGENTS|MORE_AGENTS_AGENT_URL/.test(problem))).toBe(false);
  });
});

describe("scanEnvReads with a cache, as the scaffolder checks the fleet before and after a change", () => {
  it("parses a file once across scans and views linking to it, and again once it changes", () => {
    const root = sourceTree({ "pkg/src/env.ts": "export const a = env.FIRST_SETTING;\n" });
    const view = sourceTree({});
    mkdirSync(join(view, "pkg"));
    symlinkSync(join(root, "pkg", "src"), join(view, "pkg", "src"));
    const cache: EnvScanCache = new Map();
    expect([...scanEnvReads(root, [join(root, "pkg")], cache).names]).toEqual([
      ["FIRST_SETTING", ["pkg/src/env.ts"]],
    ]);
    expect(cache.size).toBe(1);
    const [entry] = [...cache.values()];
    // The view's file is the same file: its answer comes from the cache, named where the view has it.
    expect([...scanEnvReads(view, [join(view, "pkg")], cache).names]).toEqual([
      ["FIRST_SETTING", ["pkg/src/env.ts"]],
    ]);
    expect([...cache.values()][0]).toBe(entry);
    // A changed file is read again.
    writeFileSync(join(root, "pkg", "src", "env.ts"), "export const b = env.SECOND_SETTING_NAME;\n");
    expect([...scanEnvReads(root, [join(root, "pkg")], cache).names.keys()]).toEqual(["SECOND_SETTING_NAME"]);
    expect(cache.size).toBe(1);
  });
});
