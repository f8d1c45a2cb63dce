import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { exampleArgumentsOf, operationsOf, readDescription } from "@switchboard/openapi-tools/reading";
import { agentConformance } from "@switchboard-testing/agent-conformance";
import { type FakePetstore, startFakePetstore, startOpenApiFake } from "@switchboard-testing/fake-vendors";
import { callTool } from "@switchboard-testing/test-llm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH } from "../src/env.js";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const document = JSON.parse(readFileSync(join(packageDir, "openapi.json"), "utf8"));
/** Where the fake serves the described paths: the path of the description's first server. */
const API_ROOT = "/api/v3";

// "call <tool> <json>" makes the scripted model call a tool with those arguments: here each operation's
// example arguments, valid against its tool's own schema (openapi-tools reads openapi.json as the agent does).
const { operations } = operationsOf((await readDescription(document)).resolved);
/**
 * Whether the model is offered `find_operations` and `call_operation` instead of one tool per operation
 * (more chosen operations than openapi-tools' bound): then the test calls an operation as the model
 * must, through `call_operation`, which the runtime runs as that operation's own tool.
 */
const ROUTED = false;
/** The tool the model calls, whose name the answer and the streamed status carry. */
const CALLED = ROUTED ? "call_operation" : "get_inventory";
function call(tool: string): string {
  const operation = operations.find((one) => one.tool === tool);
  if (!operation) throw new Error(`openapi.json has no operation whose tool is ${tool}.`);
  const args = exampleArgumentsOf(operation);
  return ROUTED
    ? `call call_operation ${JSON.stringify({ operation: tool, arguments: args })}`
    : `call ${tool} ${JSON.stringify(args)}`;
}
const READ = call("get_inventory");
const CHANGE = call("place_order");

// A test value for each credential variable, and the credential each scheme then carries: the fake
// answers only requests that carry one their operation's security accepts, sent as its scheme says.
const VARIABLES: Record<string, string> = Object.fromEntries(
  [
    ...Object.values(AUTH)
      .join(" ")
      .matchAll(/\$\{(\w+)\}/g),
  ].map(([, name = ""]) => [name, `${name.toLowerCase()}-test`]),
);
const CREDENTIALS = Object.fromEntries(
  Object.entries(AUTH).map(([scheme, template]) => [
    scheme,
    template.replace(/\$\{(\w+)\}/g, (_whole, name: string) => VARIABLES[name] ?? ""),
  ]),
);

// The conformance suite against a fake made from the same description (openapi.json): each request is
// matched to an operation and validated against it, and answered with a value valid against it. Add
// this agent's own cases below.
const agent = agentConformance({
  name: "petstore",
  packageDir,
  skills: ["petstore_reads", "petstore_changes"],
  description:
    "The Swagger Petstore's pets, orders and users through its OpenAPI description; the worked example of an agent made with pnpm new-agent --openapi.",
  service: {
    start: () =>
      startOpenApiFake({ vendor: "Petstore", document, apiRoot: API_ROOT, credentials: CREDENTIALS }),
    env: (api) => ({ PETSTORE_API_URL: `${api.url}${API_ROOT}`, ...VARIABLES }),
    requests: (api) => api.requests.length,
  },
  llmRules: [
    {
      lastUser: /^call (\w+) (\{.*\})$/,
      reply: (_r, { match }) => callTool(match?.[1] ?? "", JSON.parse(match?.[2] ?? "{}")),
    },
  ],
  fallback: "I call the Petstore API's operations.",
  read: {
    prompt: READ,
    answer: `${CALLED} returned:`,
    check: (api) => {
      expect(api.requests.at(-1)?.method).toBe("GET");
      expect(api.requests.at(-1)?.status).toBeLessThan(300);
    },
  },
  change: {
    prompt: CHANGE,
    question: "(POST /store/order",
    applied: (api) => api.requests.filter((request) => request.method !== "GET" && request.status < 400),
    answer: "place_order returned:",
  },
  decline: { prompt: CHANGE },
  credentials: { variable: "PETSTORE_API_KEY", prompt: call("get_inventory"), error: "PETSTORE_API_KEY" },
  streaming: { prompt: READ, tool: CALLED, answer: `${CALLED} returned:` },
});

it("sends the credentials as the description's security schemes say, and never shows them", async () => {
  const result = await agent.ask(READ);
  expect(result.state).toBe("completed");
  for (const value of Object.values(VARIABLES)) expect(result.text).not.toContain(value);
  expect(agent.service.requests.at(-1)?.status).toBeLessThan(300);
});

it("sends no credential to an operation that declares none (security: [])", async () => {
  const result = await agent.ask(call("login_user"));
  expect(result.state).toBe("completed");
  expect(agent.service.requests.at(-1)?.status).toBeLessThan(300);
});

// Petstore's own cases, against fake-vendors' stateful Petstore (the same description, pets kept).
describe("against a Petstore that keeps its pets", () => {
  let store: FakePetstore;
  beforeAll(async () => {
    store = await startFakePetstore();
  });
  afterAll(() => store?.close());
  const env = () => ({ PETSTORE_API_URL: store.apiUrl, PETSTORE_API_KEY: store.apiKey });

  it("finds a pet by id, naming it as the policy's pet", async () => {
    const result = await agent.ask(`call get_pet_by_id {"petId":2}`, env());
    expect(result.text).toContain('"name": "Whiskers"');
    expect(store.requests.at(-1)).toMatchObject({ method: "GET", path: "/api/v3/pet/2", status: 200 });
  });

  it("deletes a pet only after the user approves, and says when it is not there", async () => {
    const connection = await agent.connect(env());
    const contextId = agent.contextId();
    const asked = await connection.send({ text: `call delete_pet {"petId":3}`, contextId });
    expect(asked.question).toContain("Deletes a pet. Delete a pet. (DELETE /pet/3)");
    expect(store.pets.map((pet) => pet.id)).toContain(3);
    const done = await connection.send({ text: "yes", contextId, taskId: asked.taskId });
    expect(done.state).toBe("completed");
    expect(store.changes).toEqual([{ operation: "deletePet", petId: 3 }]);
    expect(store.pets.map((pet) => pet.id)).not.toContain(3);

    const again = await agent.ask(`call get_pet_by_id {"petId":3}`, env());
    expect(again.text).toMatch(/not found/i);
  });

  it("fails the turn naming PETSTORE_API_KEY when the Petstore refuses the key, without showing it", async () => {
    const wrong = "not-the-petstore-key";
    const result = await agent.ask(`call find_pets_by_status {}`, { ...env(), PETSTORE_API_KEY: wrong });
    expect(result.state).toBe("failed");
    expect(result.text).toContain("check PETSTORE_API_KEY");
    expect(result.text).not.toContain(wrong);
  });
});
