import { PROVIDER_TOOL_RULES, type ToolRulesProvider, toolProblems } from "@switchboard/common";
import { describe, expect, it } from "vitest";
import { readDescription } from "./description.js";
import { type JsonSchema, operationsOf } from "./operations.js";
import { argumentSchemaOf, argumentsOf, exampleArgumentsOf, exampleOf, zodOf } from "./schema.js";

// Schema shapes as real descriptions write them (GitHub's REST API, Stripe's, Jira Cloud's, the
// OpenAPI specification's own discriminator example), trimmed to the parts that matter.

const V30 = { openapi: "3.0.3" };
const V31 = { openapi: "3.1.0" };

/** Every provider takes the schema, as a tool's parameters. */
function portableForEveryProvider(schema: JsonSchema): void {
  const parameters = { type: "object", properties: { body: schema } };
  for (const provider of Object.keys(PROVIDER_TOOL_RULES) as ToolRulesProvider[])
    expect(toolProblems(provider, [{ name: "tool", parameters }]), provider).toEqual([]);
}

/** The example a request would carry is valid against the tool's own argument schema. */
function validArgument(schema: JsonSchema, openapi = V30): unknown {
  const example = exampleOf(schema, "request");
  const check = zodOf(argumentSchemaOf(schema, openapi)).safeParse(example);
  expect(check.error?.issues ?? []).toEqual([]);
  return example;
}

describe("argumentSchemaOf and exampleOf over real descriptions' shapes", () => {
  it("GitHub's issue body (3.0): oneOf string/integer, nullable strings, arrays of oneOf", () => {
    const body = {
      type: "object",
      required: ["title"],
      properties: {
        title: { oneOf: [{ type: "string" }, { type: "integer" }], description: "The title of the issue." },
        body: { type: "string" },
        assignee: { type: "string", nullable: true },
        milestone: { oneOf: [{ type: "string" }, { type: "integer" }], nullable: true },
        labels: {
          type: "array",
          items: {
            oneOf: [
              { type: "string" },
              {
                type: "object",
                properties: {
                  id: { type: "integer" },
                  name: { type: "string" },
                  color: { type: "string", nullable: true },
                },
              },
            ],
          },
        },
      },
    };
    const schema = argumentSchemaOf(body, V30);
    portableForEveryProvider(schema);
    expect(schema.properties).toMatchObject({
      title: { anyOf: [{ type: "string" }, { type: "integer" }] },
      assignee: { type: "string", nullable: true },
    });
    const tool = zodOf(schema);
    expect(
      tool.safeParse({ title: "Found a bug", assignee: null, labels: ["bug", { name: "p1" }] }).success,
    ).toBe(true);
    expect(tool.safeParse({ title: { not: "a title" } }).success).toBe(false);
    expect(validArgument(body)).toEqual({ title: "example" });
  });

  it("GitHub's 3.1 answers: type arrays, date-time formats and examples", () => {
    const user = {
      type: "object",
      required: ["login", "id", "created_at"],
      properties: {
        login: { type: "string", examples: ["octocat"] },
        id: { type: "integer", format: "int64", examples: [1] },
        name: { type: ["string", "null"], examples: ["monalisa octocat"] },
        created_at: { type: "string", format: "date-time", examples: ["2008-01-14T04:33:35Z"] },
        email: { type: ["string", "null"], format: "email" },
      },
    };
    const answer = exampleOf(user, "response") as Record<string, unknown>;
    expect(answer).toEqual({
      login: "octocat",
      id: 1,
      name: "monalisa octocat",
      created_at: "2008-01-14T04:33:35Z",
      email: "user@example.com",
    });
    const schema = argumentSchemaOf(user, V31);
    portableForEveryProvider(schema);
    expect(schema.properties).toMatchObject({ name: { type: "string", nullable: true } });
    expect(zodOf(schema).safeParse({ ...answer, name: null }).success).toBe(true);
  });

  it("Stripe's emptyable fields and expandable references (anyOf with an empty-string enum, 3.0)", () => {
    const body = {
      type: "object",
      required: ["currency"],
      properties: {
        currency: { type: "string", format: "currency" },
        description: {
          anyOf: [
            { maxLength: 5000, type: "string" },
            { enum: [""], type: "string" },
          ],
        },
        metadata: {
          anyOf: [
            { additionalProperties: { type: "string" }, type: "object" },
            { enum: [""], type: "string" },
          ],
        },
        customer: {
          anyOf: [
            { maxLength: 5000, type: "string" },
            { type: "object", properties: { id: { type: "string" } }, "x-expansionResources": {} },
          ],
          "x-expansionResources": { oneOf: [{ $ref: "#/components/schemas/customer" }] },
        },
        amount: { type: "integer", minimum: 0, exclusiveMinimum: true },
      },
    };
    const schema = argumentSchemaOf(body, V30);
    portableForEveryProvider(schema);
    expect(JSON.stringify(schema)).not.toContain("x-expansion");
    expect(zodOf(schema).safeParse({ currency: "usd", description: "" }).success).toBe(true);
    const example = exampleOf({ ...body, required: ["currency", "amount", "metadata"] }, "request");
    // 3.0's exclusiveMinimum: true with minimum 0: the example is above 0.
    expect(example).toMatchObject({ currency: "example", amount: 1, metadata: {} });
  });

  it("Jira's allOf wrappers: a description beside one referenced part, readOnly ids out of requests", async () => {
    const { resolved } = await readDescription({
      openapi: "3.0.1",
      info: { title: "Jira", version: "1" },
      paths: {
        "/rest/api/3/project": {
          post: {
            operationId: "createProject",
            requestBody: {
              required: true,
              content: {
                "application/json": { schema: { $ref: "#/components/schemas/CreateProjectDetails" } },
              },
            },
            responses: { "201": { description: "created" } },
          },
        },
      },
      components: {
        schemas: {
          CreateProjectDetails: {
            type: "object",
            required: ["key", "name", "id", "lead"],
            properties: {
              id: { type: "integer", readOnly: true, description: "The ID of the project." },
              self: { type: "string", format: "uri", readOnly: true },
              key: { type: "string", pattern: "^[A-Z][A-Z0-9]{1,9}$" },
              name: { type: "string" },
              lead: { allOf: [{ $ref: "#/components/schemas/User" }], description: "The project lead." },
              projectTypeKey: { type: "string", enum: ["software", "service_desk", "business"] },
            },
            additionalProperties: false,
          },
          User: {
            type: "object",
            required: ["accountId"],
            properties: {
              accountId: { type: "string", maxLength: 128 },
              self: { type: "string", readOnly: true },
            },
          },
        },
      },
    });
    const [operation] = operationsOf(resolved).operations;
    if (!operation?.body) throw new Error("no body");
    const schema = argumentSchemaOf(operation.body.schema, V30);
    portableForEveryProvider(schema);
    expect(Object.keys(schema.properties as object)).toEqual(["key", "name", "lead", "projectTypeKey"]);
    expect(schema.required).toEqual(["key", "name", "lead"]);
    expect(schema.properties).toMatchObject({
      lead: { type: "object", required: ["accountId"], description: "The project lead." },
    });
    const args = exampleArgumentsOf(operation);
    expect(args).toEqual({ body: { key: "EXAMPLE", name: "example", lead: { accountId: "example" } } });
    expect(argumentsOf(operation).safeParse(args).success).toBe(true);
  });

  it("a discriminator holds each branch's property to its mapping (oneOf, and allOf subtypes)", async () => {
    const { resolved } = await readDescription({
      openapi: "3.1.0",
      info: { title: "Pets", version: "1" },
      paths: {
        "/pets": {
          post: {
            operationId: "addPet",
            requestBody: {
              required: true,
              content: {
                "application/json": {
                  schema: {
                    oneOf: [{ $ref: "#/components/schemas/Cat" }, { $ref: "#/components/schemas/Dog" }],
                    discriminator: {
                      propertyName: "petType",
                      mapping: { cat: "#/components/schemas/Cat", dog: "#/components/schemas/Dog" },
                    },
                  },
                },
              },
            },
            responses: { "200": { description: "ok" } },
          },
        },
        "/lizards": {
          post: {
            operationId: "addLizard",
            requestBody: {
              required: true,
              content: { "application/json": { schema: { $ref: "#/components/schemas/Lizard" } } },
            },
            responses: { "200": { description: "ok" } },
          },
        },
      },
      components: {
        schemas: {
          Pet: {
            type: "object",
            required: ["petType"],
            properties: { petType: { type: "string" }, name: { type: "string" } },
            discriminator: { propertyName: "petType" },
          },
          // Both cats and dogs may have a name: only the discriminator tells them apart.
          Cat: {
            allOf: [{ $ref: "#/components/schemas/Pet" }, { properties: { lives: { type: "integer" } } }],
          },
          Dog: {
            allOf: [{ $ref: "#/components/schemas/Pet" }, { properties: { bark: { type: "boolean" } } }],
          },
          Lizard: {
            allOf: [{ $ref: "#/components/schemas/Pet" }, { properties: { tail: { type: "boolean" } } }],
          },
        },
      },
    });
    const [addPet, addLizard] = operationsOf(resolved).operations;
    if (!addPet?.body || !addLizard?.body) throw new Error("no body");
    const schema = argumentSchemaOf(addPet.body.schema, V31);
    portableForEveryProvider(schema);
    expect(schema.anyOf).toMatchObject([
      { properties: { petType: { type: "string", enum: ["cat"] } }, required: ["petType"] },
      { properties: { petType: { type: "string", enum: ["dog"] } }, required: ["petType"] },
    ]);
    expect(exampleArgumentsOf(addPet)).toEqual({ body: { petType: "cat" } });
    // A subtype named by no mapping takes its own schema's name.
    expect(exampleArgumentsOf(addLizard)).toEqual({ body: { petType: "Lizard" } });
    const tool = argumentsOf(addPet);
    expect(tool.safeParse({ body: { petType: "dog", bark: true } }).success).toBe(true);
    expect(tool.safeParse({ body: { petType: "parrot" } }).success).toBe(false);
  });

  it("writeOnly properties are out of answers, readOnly ones out of requests", () => {
    const account = {
      allOf: [
        {
          type: "object",
          required: ["id", "username"],
          properties: {
            id: { type: "string", format: "uuid", readOnly: true },
            username: { type: "string" },
          },
        },
        {
          type: "object",
          required: ["password"],
          properties: { password: { type: "string", writeOnly: true, minLength: 12 } },
        },
      ],
    };
    const request = exampleOf(account, "request") as Record<string, unknown>;
    expect(Object.keys(request).sort()).toEqual(["password", "username"]);
    expect((request.password as string).length).toBeGreaterThanOrEqual(12);
    expect(exampleOf(account, "response")).toEqual({
      id: "3fa85f64-5717-4562-b3fc-2c963f66afa6",
      username: "example",
    });
  });

  it("the schema's own example is taken only where it is valid", () => {
    expect(exampleOf({ type: "integer", minimum: 10, example: 3 }, "request")).toBe(10);
    expect(exampleOf({ type: "string", enum: ["open", "closed"], example: "closed" }, "request")).toBe(
      "closed",
    );
    expect(exampleOf({ type: "string", format: "date", example: "yesterday" }, "response")).toBe(
      "2024-01-15",
    );
    expect(
      exampleOf({ type: "array", items: { type: "string" }, minItems: 2, uniqueItems: true }, "request"),
    ).toEqual(["example", "example1"]);
  });

  it("a large enum is described, not listed, in the tool's schema; the example is one of its values", () => {
    const codes = Array.from({ length: 400 }, (_, i) => `code_${i}`);
    const schema = argumentSchemaOf({ type: "string", enum: codes }, V30);
    expect(schema.enum).toBeUndefined();
    expect(schema.description).toContain("one of 400 values");
    expect(exampleOf({ type: "string", enum: codes }, "request")).toBe("code_0");
    // A nullable enum: null stays a value the tool takes, never the string "null".
    const status = argumentSchemaOf({ type: "string", enum: ["a", "b", null], nullable: true }, V30);
    expect(status).toMatchObject({ type: "string", enum: ["a", "b"], nullable: true });
    expect(zodOf(status).safeParse(null).success).toBe(true);
    expect(zodOf(status).safeParse("null").success).toBe(false);
  });
});

describe("schemas built to blow up give bounded schemas (attacks)", () => {
  it("nesting ten thousand levels deep", () => {
    let deep: JsonSchema = { type: "string" };
    for (let i = 0; i < 10_000; i++) deep = { type: "object", required: ["x"], properties: { x: deep } };
    const schema = argumentSchemaOf(deep, V30);
    expect(JSON.stringify(schema).length).toBeLessThan(5_000);
    portableForEveryProvider(schema);
    expect(typeof exampleOf(deep, "request")).toBe("object");
  });

  it("an enum of a million values", () => {
    const huge = { type: "string", enum: Array.from({ length: 1_000_000 }, (_, i) => `v${i}`) };
    const schema = argumentSchemaOf({ type: "object", properties: { pick: huge } }, V30);
    expect(JSON.stringify(schema).length).toBeLessThan(1_000);
    expect(exampleOf(huge, "request")).toBe("v0");
  });

  it("an allOf that contains itself, as an object and as a $ref the resolver leaves", async () => {
    const loop: JsonSchema = { type: "object", properties: { name: { type: "string" } } };
    loop.allOf = [loop, { required: ["name"] }];
    (loop.properties as JsonSchema).child = loop;
    const schema = argumentSchemaOf(loop, V30);
    expect(schema).toMatchObject({ type: "object", required: ["name"] });
    expect(exampleOf(loop, "request")).toEqual({ name: "example" });

    const { resolved } = await readDescription({
      openapi: "3.0.3",
      info: { title: "Loops", version: "1" },
      paths: {
        "/nodes": {
          post: {
            operationId: "addNode",
            requestBody: {
              required: true,
              content: { "application/json": { schema: { $ref: "#/components/schemas/Node" } } },
            },
            responses: { "200": { description: "ok" } },
          },
        },
      },
      components: {
        schemas: {
          Node: {
            allOf: [
              { $ref: "#/components/schemas/Node" },
              { type: "object", required: ["id"], properties: { id: { type: "string" } } },
            ],
            properties: { children: { type: "array", items: { $ref: "#/components/schemas/Node" } } },
          },
        },
      },
    });
    const [operation] = operationsOf(resolved).operations;
    if (!operation) throw new Error("no operation");
    const args = exampleArgumentsOf(operation);
    expect(args).toEqual({ body: { id: "example" } });
    expect(argumentsOf(operation).safeParse(args).success).toBe(true);
  });

  it("a schema that reuses its parts (a tree of 2^60 paths) stays within the walk's bounds", () => {
    let wide: JsonSchema = { type: "string" };
    for (let i = 0; i < 60; i++) wide = { type: "object", properties: { a: wide, b: wide }, required: ["a"] };
    const schema = argumentSchemaOf(wide, V30);
    expect(JSON.stringify(schema).length).toBeLessThan(5_000_000);
    expect(exampleOf(wide, "response")).toBeTypeOf("object");
  });
});

describe("the body argument, described by how it is sent", () => {
  it("JSON, a form, and multipart with file fields as text or base64", async () => {
    const object = { type: "object", properties: { name: { type: "string" } } };
    const bodyOf = (mediaType: string) => ({
      post: {
        requestBody: { required: true, content: { [mediaType]: { schema: object } } },
        responses: { 200: { description: "ok" } },
      },
    });
    const { resolved } = await readDescription({
      openapi: "3.0.3",
      info: { title: "Bodies", version: "1" },
      paths: {
        "/json": bodyOf("application/json"),
        "/form": bodyOf("application/x-www-form-urlencoded"),
        "/upload": bodyOf("multipart/form-data"),
      },
    });
    const about = operationsOf(resolved).operations.map(
      (operation) => argumentsOf(operation).shape.body?.description,
    );
    expect(about).toEqual([
      "The request body, as JSON",
      "The request body's fields, sent as a form (application/x-www-form-urlencoded)",
      "The request body's fields, sent as multipart/form-data: a file field takes the file's content as text (as base64 where its schema says contentEncoding base64)",
    ]);
  });
});

describe("a string example matches its pattern", () => {
  it("one no simple guess matches (Twilio's account SID) is made from the pattern, the same each time", () => {
    const sid = { type: "string", pattern: "^AC[0-9a-fA-F]{32}$", minLength: 34, maxLength: 34 };
    expect(validArgument(sid)).toBe(`AC${"0".repeat(32)}`);
    expect(exampleOf(sid, "response")).toBe(exampleOf(sid, "response"));
    expect(validArgument({ type: "string", pattern: "^[A-Z]{2}-\\d{4}$" })).toMatch(/^[A-Z]{2}-\d{4}$/);
  });
});
