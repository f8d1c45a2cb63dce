import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { agentConformance } from "@switchboard-testing/agent-conformance";
import { type FakePetstore, startFakePetstore, startOpenApiFake } from "@switchboard-testing/fake-vendors";
import { callTool } from "@switchboard-testing/test-llm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const API_KEY = "petstore-test-key";

// The conformance suite against a fake made from the same OpenAPI description (openapi.json): each
// request is matched to an operation and validated against it, and answered with the description's
// own example. "call <tool> <json>" calls a tool with those arguments. Add this agent's own cases below.
const agent = agentConformance({
  name: "petstore",
  packageDir,
  skills: ["petstore_reads", "petstore_changes"],
  description:
    "The Swagger Petstore's pets, orders and users through its OpenAPI description; the worked example of an agent made with pnpm new-agent --openapi.",
  service: {
    start: () =>
      startOpenApiFake({
        vendor: "Petstore",
        document: JSON.parse(readFileSync(join(packageDir, "openapi.json"), "utf8")),
        apiRoot: "/api/v3",
      }),
    env: (api) => ({ PETSTORE_API_URL: `${api.url}/api/v3`, PETSTORE_API_KEY: API_KEY }),
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
    prompt: `call find_pets_by_status {}`,
    answer: "find_pets_by_status returned:",
    check: (api) => expect(api.requests.at(-1)).toMatchObject({ method: "GET", status: 200 }),
  },
  change: {
    prompt: `call add_pet {"body":{"name":"doggie","photoUrls":["example"]}}`,
    question: "(POST /pet",
    applied: (api) => api.requests.filter((request) => request.method !== "GET" && request.status < 400),
    answer: "add_pet returned:",
  },
  decline: { prompt: `call add_pet {"body":{"name":"doggie","photoUrls":["example"]}}` },
  credentials: { variable: "PETSTORE_API_KEY" },
  streaming: {
    prompt: `call find_pets_by_status {}`,
    tool: "find_pets_by_status",
    answer: "find_pets_by_status returned:",
  },
});

it("sends the API key as the description's security scheme says, and never shows it", async () => {
  const result = await agent.ask(`call find_pets_by_status {}`);
  expect(result.state).toBe("completed");
  expect(result.text).not.toContain(API_KEY);
  expect(agent.service.requests.at(-1)?.headers.api_key).toBe(API_KEY);
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
