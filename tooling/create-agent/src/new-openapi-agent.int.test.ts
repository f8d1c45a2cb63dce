// biome-ignore-all lint/suspicious/noTemplateCurlyInString: generated credentials name their variables as ${VAR}, on purpose.
import { readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { checkFleet } from "@switchboard/fleet-config";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { copyRepo, hashTree, repoRoot } from "../test/repo.js";
import { removeAgentFromChart } from "./chart-edit.js";
import { removeAgentFromCompose } from "./compose-edit.js";
import { removeAgentFromEnvExample } from "./env-example-edit.js";
import { main } from "./main.js";
import { loadOpenApiSource } from "./openapi-source.js";
import { newAgent } from "./scaffold.js";

const SPEC = "testing/fake-vendors/specs/swagger-petstore/openapi.yaml";
const DESCRIPTIONS = "tooling/create-agent/test/descriptions";
const DESCRIPTION =
  "The Swagger Petstore's pets, orders and users through its OpenAPI description; the worked example of an agent made with pnpm new-agent --openapi.";

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .filter((file) => !/^(node_modules|dist|\.reports|\.turbo)\//.test(file))
    .sort();
}

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

/**
 * pnpm new-agent --openapi in a copy of the repository: agents/petstore, as committed, is what the
 * command makes from the vendored Petstore description (its tests then test the generated agent),
 * with the same registrations in the fleet files; what it makes of other descriptions; what it refuses.
 * That the packages it makes of those descriptions build, lint, typecheck and pass their own tests is
 * the OpenAPI corpus test's (testing/openapi-corpus), in its copy beside the corpus.
 */
describe("pnpm new-agent --openapi", () => {
  let repo: string;
  const read = (file: string) => readFileSync(join(repo, file), "utf8");
  beforeAll(() => {
    repo = copyRepo("create-openapi-agent-");
    // The workspace's biome, which formats generated files as it formatted the committed ones.
    symlinkSync(join(repoRoot, "node_modules"), join(repo, "node_modules"));
  });
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it("makes agents/petstore from the Petstore's OpenAPI description, as committed", async () => {
    const fleet = () => [
      read("docker-compose.dev.yaml"),
      read(".env.example"),
      read("charts/switchboard/values.yaml"),
    ];
    const registered = fleet();
    // Taken back by hand (remove-agent would refuse: CAIPE's PETSTORE_API_KEY would then be read by nothing).
    rmSync(join(repo, "agents", "petstore"), { recursive: true });
    writeFileSync(
      join(repo, "docker-compose.dev.yaml"),
      removeAgentFromCompose(registered[0] ?? "", "petstore"),
    );
    writeFileSync(join(repo, ".env.example"), removeAgentFromEnvExample(registered[1] ?? "", "petstore"));
    writeFileSync(
      join(repo, "charts/switchboard/values.yaml"),
      removeAgentFromChart(registered[2] ?? "", "petstore"),
    );
    expect(fleet()).not.toEqual(registered);

    const source = await loadOpenApiSource(join(repo, SPEC), "PETSTORE");
    expect(source.skipped).toHaveLength(1);
    expect(source.skipped[0]).toMatch(/^POST \/pet\/\{petId\}\/uploadImage \(uploadFile\)/);
    const result = newAgent({
      repoRoot: repo,
      name: "petstore",
      description: DESCRIPTION,
      openapi: { source, argument: SPEC },
    });
    expect(result).toMatchObject({
      port: 8013,
      openapi: { reads: 8, changes: 10, variables: ["PETSTORE_API_KEY"] },
    });
    // The same registrations (new-agent appends where remove-agent took them from: compare line sets).
    const lines = (texts: string[]) => texts.map((text) => text.split("\n").sort());
    expect(lines(fleet())).toEqual(lines(registered));

    const made = join(repo, "agents", "petstore");
    const committed = join(repoRoot, "agents", "petstore");
    // Hand-written beside the generated files: the tools' unit test and the Petstore's own test cases.
    const own = new Set(["src/tools.test.ts"]);
    expect(filesUnder(made)).toEqual(filesUnder(committed).filter((file) => !own.has(file)));
    for (const file of filesUnder(made)) {
      const generated = readFileSync(join(made, file), "utf8");
      const kept = readFileSync(join(committed, file), "utf8");
      // The Petstore's own cases follow the generated test (and add their imports).
      if (file === "test/petstore.int.test.ts")
        expect(kept).toContain(generated.slice(generated.indexOf("const packageDir")).trimEnd());
      else expect(kept, file).toBe(generated);
    }
    // No request code of its own: the tools are openapi-tools', from the package's openapi.json.
    expect(filesUnder(made).filter((file) => file.startsWith("src/"))).toEqual([
      "src/agent.ts",
      "src/env.ts",
      "src/index.ts",
      "src/prompt.ts",
      "src/tools.ts",
    ]);
    expect(JSON.parse(read("agents/petstore/package.json"))).toMatchObject({
      files: ["dist", "openapi.json"],
      dependencies: { "@switchboard/openapi-tools": "workspace:*" },
    });
  });

  it("names the agent's own collections and each setting in its README", () => {
    const readme = read("agents/petstore/README.md");
    expect(readme).toContain("`checkpoints_petstore` / `checkpoint_writes_petstore`");
    expect(readme).toContain(
      "| `PETSTORE_API_URL` | the API's address; default https://petstore3.swagger.io/api/v3, the description's first server |",
    );
    expect(readme).toContain(
      "| `PETSTORE_API_KEY` | the credential of the security scheme `api_key`, sent as the `api_key` header |",
    );
  });

  it("makes an agent of an OpenAPI 3.1 description with a server of `/`, allOf bodies and `security: []`", async () => {
    const made = await cli([
      "new",
      "cash-ledger",
      "--root",
      repo,
      "--openapi",
      join(repo, DESCRIPTIONS, "ledger.yaml"),
      "--description",
      "Accounts and entries of the company ledger.",
    ]);
    expect(made.err).toBe("");
    expect(made.code).toBe(0);
    expect(made.out).toContain("on port 8017: 3 read tools and 5 change tools");
    expect(checkFleet(repo)).toEqual([]);
    // Its hyphenated name, as the collections and variables spell it.
    const readme = read("agents/cash-ledger/README.md");
    expect(readme).toContain("`checkpoints_cash-ledger` / `checkpoint_writes_cash-ledger`");
    expect(readme).toContain(
      "| `CASH_LEDGER_API_URL` | the API's address, required (the agent does not start without it): the description names no absolute server |",
    );
    expect(readme).toContain(
      "| `CASH_LEDGER_API_KEY` | the credential of the security scheme `bearerAuth`, sent as a bearer token |",
    );
    expect(read("agents/cash-ledger/src/env.ts")).toContain('bearerAuth: "${CASH_LEDGER_API_KEY}",');
    expect(read("agents/cash-ledger/src/env.ts")).toContain("CASH_LEDGER_API_URL: baseUrlSetting(),");
    expect(read(".env.example")).toContain("\nCASH_LEDGER_API_URL=\n# Security scheme");
    expect(parse(read("charts/switchboard/values.yaml")).agents["cash-ledger"]).toEqual({
      enabled: true,
      port: 8017,
      env: { CASH_LEDGER_API_URL: "" },
      secretKeys: ["CASH_LEDGER_API_KEY"],
    });
    // The test reads a credentialed read, a change, and an operation declaring `security: []`;
    // the file upload is an operation but not one the test calls.
    const test = read("agents/cash-ledger/test/cash-ledger.int.test.ts");
    expect(test).toContain('const READ = call("list_accounts");');
    expect(test).toContain('const CHANGE = call("create_account");');
    expect(test).toContain('agent.ask(call("get_health"))');
    expect(test).toContain('credentials: {\n    variable: "CASH_LEDGER_API_KEY",');
  });

  it("makes an agent of a Swagger 2 description, keeping its OpenAPI 3 conversion and saying so", async () => {
    const made = await cli([
      "new",
      "legacy-inventory",
      "--root",
      repo,
      "--openapi",
      join(repo, DESCRIPTIONS, "legacy-swagger.json"),
    ]);
    expect(made.err).toBe("");
    expect(made.out).toContain(
      "The description is Swagger 2.0: openapi.json holds it converted to OpenAPI 3.",
    );
    expect(JSON.parse(read("agents/legacy-inventory/openapi.json")).openapi).toMatch(/^3\./);
    expect(read("agents/legacy-inventory/README.md")).toContain(
      "The description was Swagger 2.0: `openapi.json` is its conversion to OpenAPI 3",
    );
    expect(read("agents/legacy-inventory/src/env.ts")).toContain(
      'basic: "${LEGACY_INVENTORY_API_USER}:${LEGACY_INVENTORY_API_PASSWORD}",',
    );
    expect(read(".env.example")).toContain("LEGACY_INVENTORY_API_USER=\nLEGACY_INVENTORY_API_PASSWORD=\n");
    expect(checkFleet(repo)).toEqual([]);
  });

  it("keeps only the operations of --tags or --operations, passed to the tools", async () => {
    const byTag = await cli([
      "new",
      "ledger-entries",
      "--root",
      repo,
      "--openapi",
      join(repo, DESCRIPTIONS, "ledger.yaml"),
      "--tags",
      "accounts",
    ]);
    expect(byTag.err).toBe("");
    expect(byTag.out).toContain("2 read tools and 2 change tools");
    const tools = read("agents/ledger-entries/src/tools.ts");
    expect(tools).toContain(
      'export const CHOSEN: ToolsOptions = {\n  only: ["list_accounts", "create_account", "get_account", "close_account"],\n};',
    );
    expect(read("agents/ledger-entries/README.md")).toContain("by `pnpm new-agent ledger-entries --openapi");
  });

  it("refuses an unknown tag or operation naming those the description has, writing nothing", async () => {
    const before = hashTree(repo);
    const spec = join(repo, DESCRIPTIONS, "ledger.yaml");
    const tag = await cli([
      "new",
      "ledger-x",
      "--root",
      repo,
      "--openapi",
      spec,
      "--tags",
      "accounts,payroll",
    ]);
    expect(tag.code).toBe(1);
    expect(tag.err).toBe(
      '--openapi ledger.yaml: has no tag "payroll"; its tags are: session, accounts, entries.',
    );
    const operation = await cli([
      "new",
      "ledger-x",
      "--root",
      repo,
      "--openapi",
      spec,
      "--operations",
      "payEveryone",
    ]);
    expect(operation.code).toBe(1);
    expect(operation.err).toContain(
      '--openapi ledger.yaml: has no operation "payEveryone"; its operations are: getHealth, createSession, listAccounts,',
    );
    // A credential variable another part of the fleet already reads (the LLM's key).
    const taken = await cli(["new", "openai", "--root", repo, "--openapi", spec]);
    expect(taken.code).toBe(1);
    expect(taken.err).toContain(".env.example already has OPENAI_API_KEY");
    const usage = await cli(["new", "ledger-x", "--root", repo, "--tags", "accounts"]);
    expect(usage.code).toBe(2);
    expect(usage.err).toContain("--tags and --operations choose operations of an --openapi description.");
    expect(hashTree(repo)).toBe(before);
  });

  it("says a hostile description's words as text: no title, operationId or summary becomes code", async () => {
    const made = await cli([
      "new",
      "hostile",
      "--root",
      repo,
      "--openapi",
      join(repo, DESCRIPTIONS, "hostile.json"),
    ]);
    expect(made.err).toBe("");
    expect(made.code).toBe(0);
    const hostile = JSON.parse(read(`${DESCRIPTIONS}/hostile.json`));
    // The prompt module, evaluated: the title reaches the model as the description wrote it.
    const { HOSTILE_PROMPT } = (await import(join(repo, "agents/hostile/src/prompt.ts"))) as {
      HOSTILE_PROMPT: string;
    };
    expect(HOSTILE_PROMPT).toContain(`(${hostile.info.title.replace(/\s+/g, " ")} 1.0 */ \`v\` \${1})`);
    // The test calls tools by their portable names; the scheme's name is a quoted key.
    const test = read("agents/hostile/test/hostile.int.test.ts");
    expect(test).toContain('const READ = call("get_things_process_exit_3");');
    expect(test).toContain('const CHANGE = call("make_thing");');
    expect(read("agents/hostile/src/env.ts")).toContain(`'key"*/\\n\${EVIL}\`': "\${HOSTILE_API_KEY}",`);
    expect(checkFleet(repo)).toEqual([]);
  });
});
