import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Document } from "openapi-backend";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { openApiMatcher } from "./openapi-routes.js";
import { startVendorServer, type VendorServer } from "./vendor-server.js";
import { ARGO_CD_SPEC, BACKSTAGE_CATALOG_SPEC, loadVendorSpec } from "./vendor-spec.js";

// A description written as OpenAPI 3.0 ones are (nullable, readOnly ids the server sets, a writeOnly
// password, an answer that is a discriminated oneOf, an example that breaks its own schema): the fake
// made from it answers what it describes, takes every correct body and still refuses wrong ones.
const DESCRIPTION = {
  openapi: "3.0.3",
  info: { title: "Accounts", version: "1" },
  paths: {
    "/accounts": {
      post: {
        operationId: "createAccount",
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: "#/components/schemas/Account" } } },
        },
        responses: {
          "201": {
            description: "created",
            content: {
              "application/json": {
                schema: { $ref: "#/components/schemas/Account" },
                // Its own example breaks its schema (no id): a made one is answered instead.
                example: { username: "ada", email: null },
              },
            },
          },
        },
      },
    },
    "/accounts/{id}": {
      get: {
        operationId: "getAccount",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: {
          "200": {
            description: "the account",
            content: {
              "application/json": {
                schema: { $ref: "#/components/schemas/Account" },
                examples: {
                  ada: { value: { id: "a1", username: "ada", email: null, plan: { kind: "free" } } },
                },
              },
            },
          },
        },
      },
    },
    "/accounts/{id}/plan": {
      get: {
        operationId: "getPlan",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: {
          "200": {
            description: "the plan",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Plan" } } },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Account: {
        allOf: [
          { type: "object", required: ["id"], properties: { id: { type: "string", readOnly: true } } },
          {
            type: "object",
            required: ["username", "password", "email"],
            properties: {
              username: { type: "string" },
              password: { type: "string", writeOnly: true, minLength: 8 },
              email: { type: "string", format: "email", nullable: true },
              plan: { $ref: "#/components/schemas/Plan" },
            },
          },
        ],
      },
      Plan: {
        oneOf: [{ $ref: "#/components/schemas/Free" }, { $ref: "#/components/schemas/Paid" }],
        discriminator: {
          propertyName: "kind",
          mapping: { free: "#/components/schemas/Free", paid: "#/components/schemas/Paid" },
        },
      },
      Free: { type: "object", required: ["kind"], properties: { kind: { type: "string" } } },
      Paid: {
        type: "object",
        required: ["kind"],
        properties: { kind: { type: "string" }, seats: { type: "integer", minimum: 1 } },
      },
    },
  },
} as unknown as Document;

describe("the fake made from a description answers and checks bodies as OpenAPI reads them", () => {
  let server: VendorServer;
  beforeAll(async () => {
    server = await startVendorServer({
      name: "Accounts",
      openApi: {
        document: DESCRIPTION,
        // A correct answer: the writeOnly password (required) is not in it, as OpenAPI says.
        operations: {
          getAccount: (ctx) => ({ status: 200, body: { id: ctx.params.id, username: "bob", email: null } }),
        },
        mockOthers: true,
      },
      checkRequest: () => undefined,
      errorBody: (error) => ({ message: error.message, details: error.details }),
    });
  });
  afterAll(() => server?.close());

  const post = (body: unknown) =>
    fetch(`${server.url}/accounts`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("takes a body without the readOnly id and answers a made answer where its own example is wrong", async () => {
    const response = await post({ username: "ada", password: "long enough", email: null });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({
      id: "example",
      username: "example",
      email: "user@example.com",
      plan: { kind: "free" },
    });
  });

  it("refuses a body that breaks the description, and one that sends the discriminator wrong", async () => {
    const short = await post({ username: "ada", password: "short", email: null });
    expect(short.status).toBe(400);
    expect(((await short.json()) as { details: string[] }).details.join(" ")).toContain(
      "/requestBody/password",
    );
    const parrot = await post({
      username: "ada",
      password: "long enough",
      email: null,
      plan: { kind: "parrot" },
    });
    expect(parrot.status).toBe(400);
  });

  it("takes a handler's correct answer that leaves out the writeOnly password", async () => {
    const response = await fetch(`${server.url}/accounts/b2`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: "b2", username: "bob", email: null });
  });

  it("answers a discriminated oneOf with one branch, held to its mapping", async () => {
    const response = await fetch(`${server.url}/accounts/b2/plan`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ kind: "free" });
  });
});

describe("the vendors' real descriptions", () => {
  const specs = join(import.meta.dirname, "..", "specs");
  const descriptions: Array<[string, () => Promise<Document>]> = [
    ["Argo CD (Swagger 2, converted)", () => loadVendorSpec(ARGO_CD_SPEC)],
    ["Backstage's catalog (3.1)", () => loadVendorSpec(BACKSTAGE_CATALOG_SPEC)],
    [
      "Webex messaging",
      async () => JSON.parse(await readFile(join(specs, "webex", "messaging.json"), "utf8")),
    ],
    [
      "Swagger Petstore",
      async () => parse(await readFile(join(specs, "swagger-petstore", "openapi.yaml"), "utf8")),
    ],
  ];

  it.each(descriptions)(
    "%s: every operation's mocked answer passes the fake's own check",
    async (_name, load) => {
      const document = await load();
      const match = await openApiMatcher("vendor", { document, operations: {}, mockOthers: true });
      const broken: string[] = [];
      let answered = 0;
      for (const [path, item] of Object.entries(document.paths ?? {}))
        for (const method of ["get", "put", "post", "delete", "patch"] as const) {
          if (!item?.[method]) continue;
          const url = new URL(path.replace(/\{[^}]+\}/g, "p1"), "http://127.0.0.1");
          const route = match(method.toUpperCase(), url, {});
          if (!route) continue;
          const ctx = {
            method: method.toUpperCase(),
            path: url.pathname,
            params: route.params,
            query: url.searchParams,
            headers: {},
            body: undefined,
          };
          const result = await route.handler(ctx);
          try {
            route.checkAnswer?.(result);
            answered++;
          } catch (error) {
            broken.push(`${method} ${path}: ${(error as Error).message}`);
          }
        }
      expect(broken).toEqual([]);
      expect(answered).toBeGreaterThan(0);
    },
  );
});

describe("a description built to blow up the fake (attacks)", () => {
  let server: VendorServer;
  beforeAll(async () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 300; i++) deep = { type: "object", required: ["x"], properties: { x: deep } };
    const json = (schema: unknown) => ({ "application/json": { schema } });
    const node = { $ref: "#/components/schemas/Node" };
    const document = {
      openapi: "3.0.3",
      info: { title: "Hostile", version: "1" },
      paths: {
        "/nodes": {
          get: { operationId: "getNode", responses: { "200": { description: "ok", content: json(node) } } },
          post: {
            operationId: "addNode",
            requestBody: { required: true, content: json(node) },
            responses: { "201": { description: "ok", content: json(node) } },
          },
        },
        "/deep": {
          get: { operationId: "getDeep", responses: { "200": { description: "ok", content: json(deep) } } },
        },
        "/codes": {
          get: {
            operationId: "getCode",
            responses: {
              "200": {
                description: "ok",
                content: json({ type: "string", enum: Array.from({ length: 200_000 }, (_, i) => `v${i}`) }),
              },
            },
          },
        },
      },
      components: {
        schemas: {
          // An allOf that contains itself, and children that are nodes.
          Node: {
            allOf: [
              node,
              {
                type: "object",
                required: ["id"],
                properties: { id: { type: "string" }, children: { type: "array", items: node } },
              },
            ],
          },
        },
      },
    } as unknown as Document;
    server = await startVendorServer({
      name: "Hostile",
      openApi: { document, operations: {}, mockOthers: true },
      checkRequest: () => undefined,
      errorBody: (error) => ({ message: error.message, details: error.details }),
    });
  });
  afterAll(() => server?.close());

  it("answers a self-referencing allOf, a 300-level nesting and a 200,000-value enum, each valid", async () => {
    const node = await fetch(`${server.url}/nodes`);
    expect(node.status).toBe(200);
    expect(await node.json()).toMatchObject({ id: "example" });
    const deep = await fetch(`${server.url}/deep`);
    expect(deep.status).toBe(200);
    expect(JSON.stringify(await deep.json()).length).toBeLessThan(1_000);
    const code = await fetch(`${server.url}/codes`);
    expect(code.status).toBe(200);
    expect(await code.json()).toBe("v0");
  });

  it("takes a correct body of a circular schema and refuses a wrong one", async () => {
    const post = (body: unknown) =>
      fetch(`${server.url}/nodes`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expect((await post({ id: "n1", children: [{ id: "n2" }] })).status).toBe(201);
    expect((await post({ children: [] })).status).toBe(400);
  });
});
