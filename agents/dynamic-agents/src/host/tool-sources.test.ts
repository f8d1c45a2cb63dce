import { join } from "node:path";
import { createLogger } from "@switchboard/common";
import { describe, expect, it } from "vitest";
import type { ToolSourceSpec } from "../definitions/spec.js";
import { ToolSources } from "./tool-sources.js";

const PETSTORE = join(
  import.meta.dirname,
  "..",
  "..",
  "..",
  "..",
  "testing",
  "fake-vendors",
  "specs",
  "swagger-petstore",
  "openapi.yaml",
);

const petstore = (bounds: Partial<ToolSourceSpec & { kind: "openapi" }>): ToolSourceSpec => ({
  kind: "openapi",
  id: "petstore",
  name: "Petstore",
  document: PETSTORE,
  baseUrl: "http://127.0.0.1:9/api/v3",
  ...bounds,
});

// An openapi_sources entry's tags, operations and max_tools reach the tools every agent gets from it.
describe("an OpenAPI source's bounds", () => {
  const sources = () =>
    new ToolSources({ env: {}, logger: createLogger({ level: "silent" }), timeoutMs: 5_000 });

  it("gives every agent the chosen operations, as a catalog past max_tools", async () => {
    const host = sources();
    const { sources: connected, problems } = await host.sync([petstore({ tags: ["pet"], maxTools: 3 })]);
    expect(problems).toEqual([]);
    const tools = connected.get("petstore")?.source.tools({ prefix: "petstore_" }) ?? [];
    const offered = tools.filter((tool) => tool.offered !== false).map(({ tool }) => tool.name);
    expect(offered).toEqual(["petstore_find_operations", "petstore_call_operation"]);
    expect(tools.some(({ tool }) => tool.name === "petstore_get_pet_by_id")).toBe(true);
    expect(tools.some(({ tool }) => tool.name === "petstore_get_order_by_id")).toBe(false); // tag store
    const two = await sources().sync([petstore({ operations: ["getPetById", "deletePet"] })]);
    const named = two.sources.get("petstore")?.source.tools({ prefix: "petstore_" }) ?? [];
    expect(named.map(({ tool }) => tool.name)).toEqual(["petstore_get_pet_by_id", "petstore_delete_pet"]);
    await host.close();
  });

  it("names a tag or operation the description lacks as the source's problem, with the ones it has", async () => {
    const { sources: connected, problems } = await sources().sync([petstore({ tags: ["pets"] })]);
    expect(connected.has("petstore")).toBe(false);
    expect(problems).toEqual([
      {
        field: "openapi_sources.petstore",
        message: expect.stringMatching(
          /^pets: not a tag of the Swagger Petstore - OpenAPI 3.0 API; its tags are: pet, store, user\.$/,
        ),
      },
    ]);
  });
});
