import { readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyRepo, repoRoot } from "../test/repo.js";
import { removeAgentFromChart } from "./chart-edit.js";
import { removeAgentFromCompose } from "./compose-edit.js";
import { removeAgentFromEnvExample } from "./env-example-edit.js";
import { main } from "./main.js";
import { loadOpenApiSource } from "./openapi-source.js";
import { newAgent } from "./scaffold.js";

const SPEC = "testing/fake-vendors/specs/swagger-petstore/openapi.yaml";
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
  const err: string[] = [];
  const code = await main(args, { out: () => undefined, err: (line) => err.push(line) });
  return { code, err: err.join("\n") };
}

/**
 * pnpm new-agent --openapi in a copy of the repository: agents/petstore, as committed, is what the
 * command makes from the vendored Petstore description (its tests then test the generated agent),
 * with the same registrations in the fleet files.
 */
describe("pnpm new-agent --openapi", () => {
  let repo: string;
  beforeAll(() => {
    repo = copyRepo("create-openapi-agent-");
    // The workspace's biome, which formats generated files as it formatted the committed ones.
    symlinkSync(join(repoRoot, "node_modules"), join(repo, "node_modules"));
  });
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it("makes agents/petstore from the Petstore's OpenAPI description, as committed", async () => {
    const read = (file: string) => readFileSync(join(repo, file), "utf8");
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

    const source = await loadOpenApiSource(join(repo, SPEC));
    expect(source.skipped).toEqual([
      "POST /pet/{petId}/uploadImage (uploadFile): its request body is not JSON",
    ]);
    const result = newAgent({
      repoRoot: repo,
      name: "petstore",
      description: DESCRIPTION,
      openapi: { source, argument: SPEC },
    });
    expect(result).toMatchObject({ port: 8013, openapi: { reads: 8, changes: 10 } });
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
  });

  it("refuses a Swagger 2.0 description and a second source, saying what to do", async () => {
    const swagger = join(repo, "swagger2.json");
    writeFileSync(
      swagger,
      JSON.stringify({ swagger: "2.0", info: { title: "old", version: "1" }, paths: {} }),
    );
    const old = await cli(["new", "legacy-api", "--root", repo, "--openapi", swagger]);
    expect(old.code).toBe(1);
    expect(old.err).toContain(
      "is Swagger 2.0; convert it to OpenAPI 3 first (e.g. npx swagger2openapi swagger2.json",
    );
    const both = await cli([
      "new",
      "legacy-api",
      "--root",
      repo,
      "--openapi",
      swagger,
      "--mcp-url",
      "http://x/mcp",
    ]);
    expect(both.code).toBe(2);
    expect(both.err).toContain("Give one of --mcp-command, --mcp-url and --openapi.");
  });
});
