import { type AgentTool, MAX_TOOL_RESULT_CHARS } from "@switchboard/agent-runtime";
import { createLogger } from "@switchboard/common";
import { beforeAll, describe, expect, it } from "vitest";
import type { JsonObject } from "../src/description.js";
import { DEFAULT_MAX_TOOLS, type OpenApiTools, openApiTools } from "../src/index.js";
import { largeDescription } from "./fixtures/large-description.js";

const logger = createLogger({ level: "silent" });
const read = (document: JsonObject) =>
  openApiTools({ document, baseUrl: "http://127.0.0.1:9/v1", env: {}, logger });

const offered = (tools: AgentTool[]) =>
  tools.filter((tool) => tool.offered !== false).map(({ tool }) => tool.name);
const named = (tools: AgentTool[], name: string): AgentTool => {
  const found = tools.find(({ tool }) => tool.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
};
const find = async (tools: AgentTool[], args: Record<string, unknown>, name = "find_operations") =>
  String(await named(tools, name).tool.invoke(args));
const matchesOf = (answer: string) =>
  (JSON.parse(answer) as { matches: Array<{ operation: string; tags?: string[]; arguments: unknown }> })
    .matches;

describe("a large description's tools", () => {
  let fleet: OpenApiTools;
  let tools: AgentTool[];
  beforeAll(async () => {
    fleet = await read(largeDescription());
    tools = fleet.tools({ prefix: "fleet_" });
  });

  it("offers a search and a call past the bound; every operation keeps its own tool, not offered", () => {
    expect(fleet.names).toHaveLength(800);
    expect(DEFAULT_MAX_TOOLS).toBe(40);
    expect(offered(tools)).toEqual(["fleet_find_operations", "fleet_call_operation"]);
    expect(tools).toHaveLength(802);
    const own = named(tools, "fleet_delete_storage_bucket");
    expect(own.offered).toBe(false);
    expect(own.confirm?.({ bucketId: 3 })).toBe("Delete a storage bucket. (DELETE /storage/buckets/3)");
    expect(named(tools, "fleet_call_operation").routes).toBeTypeOf("function");
  });

  it("within the bound, one tool per operation, as before", () => {
    const billing = fleet.tools({ tags: ["billing"], maxTools: 100 });
    expect(billing).toHaveLength(80);
    expect(offered(billing)).toHaveLength(80);
    const two = fleet.tools({ operations: ["getStorageBucket", "list_billing_accounts"] });
    expect(offered(two)).toEqual(["list_billing_accounts", "get_storage_bucket"]);
    // Tags and operations together take the operations in both.
    expect(
      offered(fleet.tools({ tags: ["storage"], operations: ["getStorageBucket", "listBillingAccounts"] })),
    ).toEqual(["get_storage_bucket"]);
    // One tag's 80 operations are still past the default bound.
    expect(offered(fleet.tools({ tags: ["billing"] }))).toEqual(["find_operations", "call_operation"]);
  });

  it("names what it has when asked for a tag or operation it lacks, or a bound that is no number of tools", () => {
    expect(() => fleet.tools({ tags: ["billing", "payroll"] })).toThrow(
      "payroll: not a tag of the Fleet API; its tags are: billing, compute, storage, network, identity, messaging, analytics, devices, support, catalog.",
    );
    expect(() => fleet.tools({ operations: ["getStorageBucket", "getPayslip"] })).toThrow(
      /^getPayslip: not an operation of the Fleet API; its operations are: list_billing_accounts, create_billing_account, /,
    );
    expect(() => fleet.tools({ tags: ["billing"], operations: ["getStorageBucket"] })).toThrow(
      "No operation of the Fleet API is both in the tags and among the operations chosen",
    );
    for (const maxTools of [0, -1, 2.5, Number.NaN])
      expect(() => fleet.tools({ maxTools }), String(maxTools)).toThrow(
        "give a whole number of tools, 1 or more",
      );
  });

  it("costs a model turn a few hundred tokens where one tool per operation cost a hundred thousand", () => {
    const bounded = fleet.toolListTokens({ prefix: "fleet_" });
    const whole = fleet.toolListTokens({ prefix: "fleet_", maxTools: 1000 });
    expect(bounded).toBeGreaterThan(100);
    expect(bounded).toBeLessThan(1_000);
    expect(whole).toBeGreaterThan(50_000);
  });

  it("finds operations by what they do, a path, a name or a tag, at most ten, each with its arguments", async () => {
    const deleting = matchesOf(
      await find(tools, { query: "delete storage bucket" }, "fleet_find_operations"),
    );
    expect(deleting[0]).toMatchObject({
      operation: "delete_storage_bucket",
      arguments: { type: "object", properties: { bucketId: { type: "integer" } }, required: ["bucketId"] },
    });
    expect(deleting.length).toBeLessThanOrEqual(10);
    const byPath = matchesOf(
      await find(tools, { query: "/network/domains/{domainId}/events" }, "fleet_find_operations"),
    );
    expect(byPath[0]?.operation).toBe("list_network_domain_events");
    const byName = matchesOf(await find(tools, { query: "archiveComputeJob" }, "fleet_find_operations"));
    expect(byName[0]?.operation).toBe("archive_compute_job");
    const inTag = matchesOf(await find(tools, { query: "list", tag: "support" }, "fleet_find_operations"));
    expect(inTag.length).toBeGreaterThan(0);
    expect(inTag.every(({ tags }) => tags?.includes("support"))).toBe(true);
    const wholeTag = matchesOf(await find(tools, { query: "", tag: "devices" }, "fleet_find_operations"));
    expect(wholeTag).toHaveLength(10);
    expect(await find(tools, { query: "list", tag: "payroll" }, "fleet_find_operations")).toBe(
      'the Fleet API has no tag "payroll"; its tags are: billing, compute, storage, network, identity, messaging, analytics, devices, support, catalog.',
    );
    expect(await find(tools, { query: "zqxv" }, "fleet_find_operations")).toMatch(
      /^No operation of the Fleet API matches "zqxv": try other words/,
    );
  });

  it("names each list's own paging parameters, in its tool's description and in what a search shows", async () => {
    const lists = fleet.tools({
      operations: ["listStorageBuckets", "listStorageBucketEvents", "getStorageBucket"],
    });
    expect(named(lists, "list_storage_buckets").tool.description).toContain(
      "to read on, call again with page, per_page set for the next page",
    );
    expect(named(lists, "list_storage_bucket_events").tool.description).toContain(
      "call again with cursor set",
    );
    expect(named(lists, "get_storage_bucket").tool.description).toBe(
      "Get a storage bucket. (GET /storage/buckets/{bucketId})",
    );
    const found = matchesOf(await find(tools, { query: "listStorageBuckets" }, "fleet_find_operations"));
    expect(found[0]).toMatchObject({ operation: "list_storage_buckets", paging: ["page", "per_page"] });
    expect(named(tools, "fleet_call_operation").tool.description).toContain("paging arguments");
  });

  it("routes call_operation to its own operations only, by the names a model may have read", () => {
    const call = named(tools, "fleet_call_operation");
    const route = (args: Record<string, unknown>) => call.routes?.(args);
    for (const operation of ["get_storage_bucket", "fleet_get_storage_bucket", "getStorageBucket"])
      expect(route({ operation, arguments: { bucketId: 1 } })).toEqual({
        tool: "fleet_get_storage_bucket",
        args: { bucketId: 1 },
      });
    expect(route({ operation: "list_billing_accounts" })).toEqual({
      tool: "fleet_list_billing_accounts",
      args: {},
    });
    expect(() => route({ operation: "get_storage_buckt" })).toThrow(
      'fleet_call_operation: "get_storage_buckt" is not an operation of the Fleet API (near: get_storage_bucket',
    );
    // Another source's tools, the agent's own, the catalog's own: none is an operation of this API.
    for (const operation of ["pets_delete_pet", "remember", "fleet_call_operation", "fleet_find_operations"])
      expect(() => route({ operation }), operation).toThrow("is not an operation of the Fleet API");
    expect(() => route({ arguments: {} })).toThrow(/^fleet_call_operation: .*operation/s);
  });
});

describe("a search's answer under the runtime's cut of a tool result", () => {
  it("shows a huge operation's arguments alone, shallower and without descriptions, and beside others points to that", async () => {
    const wide = Object.fromEntries(
      Array.from({ length: 120 }, (_, n) => [
        `a_rather_long_field_name_number_${n}`,
        {
          type: "object",
          description:
            `Field ${n}, described at length so that the whole schema is far too long to show. `.repeat(3),
          properties: { value: { type: "object", properties: { deep: { type: "string" } } } },
        },
      ]),
    );
    const paths: Record<string, JsonObject> = {
      "/huge": {
        post: {
          operationId: "createHugeThing",
          summary: "Create a huge thing",
          requestBody: {
            required: true,
            content: { "application/json": { schema: { type: "object", properties: wide } } },
          },
          responses: { "200": { description: "OK" } },
        },
      },
    };
    for (let n = 0; n < 9; n++)
      paths[`/things/${n}`] = {
        get: {
          operationId: `getThing${n}`,
          summary: `Get huge thing ${n}`,
          responses: { "200": { description: "OK" } },
        },
      };
    const api = await read({ openapi: "3.0.3", info: { title: "Huge", version: "1" }, paths });
    const tools = api.tools({ maxTools: 1 });

    const alone = await find(tools, { query: "createHugeThing" });
    expect(alone.length).toBeLessThanOrEqual(MAX_TOOL_RESULT_CHARS);
    const [huge] = matchesOf(alone);
    expect(huge?.operation).toBe("create_huge_thing");
    expect(JSON.stringify(huge?.arguments)).toContain("a_rather_long_field_name_number_119");
    expect(JSON.stringify(huge?.arguments)).not.toContain("described at length");

    const beside = await find(tools, { query: "huge thing" });
    expect(beside.length).toBeLessThanOrEqual(MAX_TOOL_RESULT_CHARS);
    const matches = matchesOf(beside);
    expect(matches.length).toBeGreaterThan(5);
    const shown = matches.find(({ operation }) => operation === "create_huge_thing");
    expect(shown?.arguments).toBe(
      'not shown here (too long beside the others): search for "create_huge_thing" alone to see them',
    );
    expect(matches.find(({ operation }) => operation === "get_thing0")?.arguments).toMatchObject({
      type: "object",
    });
  });
});
