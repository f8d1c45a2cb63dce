/**
 * The generator's own end-to-end cases (tooling/create-agent/test/descriptions): descriptions as
 * teams have them (the reproduction: OpenAPI 3.1 with allOf bodies, `security: []`
 * operations and a server of `/`; Swagger 2; one whose words are hostile code). The corpus test
 * makes them in its copy beside the corpus: generated, built, linted, typechecked, and their tests,
 * as generated, pass in the same vitest process. (What the command prints and writes for each is
 * create-agent's new-openapi-agent.int.test.ts.)
 */
export const GENERATOR_CASES = [
  { name: "cash-ledger", file: "ledger.yaml" },
  { name: "legacy-inventory", file: "legacy-swagger.json" },
  { name: "hostile", file: "hostile.json" },
] as const;

/** Where they lie in the repository. */
export const GENERATOR_DESCRIPTIONS = "tooling/create-agent/test/descriptions";

/** Each generated test file has at least this many tests (a read, a change, credentials, …). */
export const MIN_GENERATED_TESTS = 9;
