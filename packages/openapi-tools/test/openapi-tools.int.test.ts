// biome-ignore-all lint/suspicious/noTemplateCurlyInString: auth values refer to variables as ${VAR}, on purpose.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import type { AgentTool } from "@switchboard/agent-runtime";
import { createLogger } from "@switchboard/common";
import { createChatModel } from "@switchboard/llm";
import {
  type FakePetstore,
  loadPetstoreSpec,
  startFakePetstore,
  startOpenApiFake,
  type VendorServer,
} from "@switchboard-testing/fake-vendors";
import { PROVIDER_NAMES, type ScriptedLlm, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OpenApiTools, openApiTools } from "../src/index.js";

const SPEC = join(
  import.meta.dirname,
  "..",
  "..",
  "..",
  "testing",
  "fake-vendors",
  "specs",
  "swagger-petstore",
  "openapi.yaml",
);

let llm: ScriptedLlm;
beforeAll(async () => {
  llm = await startScriptedLlm({ script: () => say("Which operation?") });
});
afterAll(() => llm?.close());

/** Everything logged, at debug level: where a secret must never appear. */
function capturedLogger() {
  const stream = new PassThrough();
  let text = "";
  stream.on("data", (chunk: Buffer) => {
    text += chunk.toString();
  });
  return { logger: createLogger({ level: "debug", destination: stream }), output: () => text };
}

function byName(tools: AgentTool[], name: string): AgentTool {
  const tool = tools.find((one) => one.tool.name === name);
  if (!tool) throw new Error(`no tool ${name} among ${tools.map((one) => one.tool.name).join(", ")}`);
  return tool;
}

/** Calls a tool as the graph does outside a turn, returning its text or the error's message. */
async function run(tool: AgentTool, args: Record<string, unknown>): Promise<string> {
  try {
    return String(await tool.tool.invoke(args));
  } catch (error) {
    return `error: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** A server that must never be called: what an argument naming another host would reach. */
async function startTrap(): Promise<{ url: string; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("the Petstore's description as tools, against the fake Petstore", () => {
  let store: FakePetstore;
  let trap: Awaited<ReturnType<typeof startTrap>>;
  let api: OpenApiTools;
  let tools: AgentTool[];
  const log = capturedLogger();

  beforeAll(async () => {
    [store, trap] = await Promise.all([startFakePetstore(), startTrap()]);
    api = await openApiTools({
      document: SPEC,
      baseUrl: store.apiUrl,
      env: { PETSTORE_KEY: store.apiKey },
      auth: { api_key: "${PETSTORE_KEY}" },
      logger: log.logger,
    });
    tools = api.tools();
  });
  afterAll(async () => {
    await Promise.all([store?.close(), trap?.close()]);
  });

  it("offers one tool per JSON operation, named and described for every provider; reads run, changes ask", async () => {
    expect(api.title).toBe("Swagger Petstore - OpenAPI 3.0");
    const names = tools.map((one) => one.tool.name);
    expect(names).toContain("find_pets_by_status");
    expect(names).toContain("add_pet");
    // Its body is an octet stream: left out, and said so at start-up.
    expect(names).not.toContain("upload_file");
    expect(log.output()).toContain("uploadFile");
    // Each provider's client, offered the tools, against the scripted model speaking its dialect
    // (which refuses what that provider refuses).
    for (const provider of PROVIDER_NAMES) {
      const { model } = await createChatModel({ env: llm.envFor(provider) });
      const bound = (model as Required<Pick<typeof model, "bindTools">>).bindTools(
        tools.map((one) => one.tool),
      );
      expect((await bound.invoke("hello")).text, provider).toBe("Which operation?");
    }
    expect(byName(tools, "find_pets_by_status").confirm).toBeUndefined();
    expect(byName(tools, "add_pet").confirm?.({ body: { name: "Rex II", photoUrls: [] } })).toMatch(
      /^Add a new pet to the store\..* \(POST \/pet\)$/,
    );
    expect(byName(tools, "delete_pet").confirm?.({ petId: 3 })).toMatch(/\(DELETE \/pet\/3\)$/);
    expect(byName(tools, "get_pet_by_id").resource?.({ petId: 2 })).toEqual({ pet: "2" });
  });

  it("lists and gets pets, sending the key the scheme names", async () => {
    const listed = await run(byName(tools, "find_pets_by_status"), { status: "available" });
    expect(listed).toContain('"name": "Rex"');
    expect(listed).not.toContain("Goldie");
    expect(store.requests.at(-1)).toMatchObject({
      method: "GET",
      path: "/api/v3/pet/findByStatus",
      status: 200,
    });
    expect(store.requests.at(-1)?.query.get("status")).toBe("available");
    expect(store.requests.at(-1)?.headers.api_key).toBe(store.apiKey);

    expect(await run(byName(tools, "get_pet_by_id"), { petId: 2 })).toContain('"name": "Whiskers"');
    const missing = await run(byName(tools, "get_pet_by_id"), { petId: 404 });
    expect(missing).toMatch(
      /^error: The Swagger Petstore - OpenAPI 3.0 API answered 404 Not Found for GET \/api\/v3\/pet\/404: Pet not found/,
    );
  });

  it("creates a pet when run (the guard asks first: the tool carries the question)", async () => {
    const before = store.changes.length;
    const added = await run(byName(tools, "add_pet"), {
      body: { name: "Bubbles", photoUrls: [], status: "pending" },
    });
    expect(added).toContain('"name": "Bubbles"');
    expect(store.changes.slice(before)).toEqual([{ operation: "addPet", petId: 4 }]);
    expect(store.pets.find((pet) => pet.id === 4)?.status).toBe("pending");
  });

  it("keeps every path argument one segment on the configured host: ../admin, a URL, .. and an encoded ..", async () => {
    const getUser = byName(tools, "get_user_by_name");
    const seen = () => store.requests.at(-1)?.path;
    await run(getUser, { username: "../admin" });
    expect(seen()).toBe("/api/v3/user/..%2Fadmin");
    await run(getUser, { username: `${trap.url}/steal` });
    expect(seen()).toBe(`/api/v3/user/${encodeURIComponent(`${trap.url}/steal`)}`);
    await run(getUser, { username: "http://evil/" });
    expect(seen()).toBe("/api/v3/user/http%3A%2F%2Fevil%2F");
    expect(trap.hits).toEqual([]);

    const count = store.requests.length;
    expect(await run(getUser, { username: ".." })).toBe(
      'error: get_user_by_name: username cannot be "..": give the username itself.',
    );
    expect(await run(getUser, { username: "." })).toMatch(
      /^error: get_user_by_name: username cannot be "\."/,
    );
    // URLs read an encoded dot as a dot: refused too.
    expect(await run(getUser, { username: "%2E%2e" })).toMatch(/cannot be "%2E%2e"/);
    // A change with such an argument asks nobody: it fails when run, before any request.
    expect(byName(tools, "delete_user").confirm?.({ username: ".." })).toBeUndefined();
    expect(await run(byName(tools, "delete_user"), { username: ".." })).toMatch(/cannot be "\.\."/);
    expect(store.requests.length).toBe(count);
  });

  it("says which credentials the API refused without showing them, in messages and logs", async () => {
    const wrong = await openApiTools({
      document: SPEC,
      baseUrl: store.apiUrl,
      env: { PETSTORE_KEY: "wrong-key-4f1d9c" },
      auth: { api_key: "${PETSTORE_KEY}" },
      logger: log.logger,
    });
    const refused = await run(byName(wrong.tools(), "get_pet_by_id"), { petId: 1 });
    expect(refused).toMatch(/refused the credentials \(HTTP 401/);
    expect(refused).toContain("check PETSTORE_KEY (auth of OpenAPI description openapi.yaml)");
    expect(refused).not.toContain("wrong-key-4f1d9c");
    expect(log.output()).not.toContain("wrong-key-4f1d9c");
    expect(log.output()).not.toContain(store.apiKey);
  });

  it("a credential's variable unset: the call fails naming it, sending nothing", async () => {
    const unset = await openApiTools({
      document: SPEC,
      baseUrl: store.apiUrl,
      env: {},
      auth: { api_key: "${PETSTORE_MISSING_KEY}" },
      logger: log.logger,
    });
    const count = store.requests.length;
    expect(await run(byName(unset.tools(), "get_inventory"), {})).toBe(
      "error: get_inventory needs PETSTORE_MISSING_KEY (auth.api_key of OpenAPI description openapi.yaml), which is not set: set it in the agent's environment.",
    );
    expect(store.requests.length).toBe(count);
  });

  it("prefix, only and asks shape the tools a configured agent gets", () => {
    const chosen = api.tools({
      prefix: "petstore_",
      only: ["get_pet_by_id", "delete_pet"],
      asks: (tool) => (tool === "get_pet_by_id" ? true : undefined),
    });
    expect(chosen.map((one) => one.tool.name)).toEqual(["petstore_get_pet_by_id", "petstore_delete_pet"]);
    expect(chosen.every((one) => one.confirm !== undefined)).toBe(true);
    expect(api.tools({ asks: () => false }).every((one) => one.confirm === undefined)).toBe(true);
    expect(() => api.tools({ only: ["get_pet", "delete_pet"] })).toThrow(
      /^get_pet: not an operation of the Swagger Petstore - OpenAPI 3.0 API; its tools are: add_pet, update_pet, find_pets_by_status/,
    );
    const long = api.tools({ prefix: `${"x".repeat(60)}_` }).map((one) => one.tool.name);
    expect(long.every((name) => name.length <= 64)).toBe(true);
    expect(new Set(long).size).toBe(long.length);
  });
});

describe("security as each operation declares it", () => {
  let fake: VendorServer;
  let tools: AgentTool[];
  const KEY = "inventory-key-7a2b";

  beforeAll(async () => {
    const document = (await loadPetstoreSpec()) as unknown as Record<string, unknown>;
    const paths = document.paths as Record<string, Record<string, Record<string, unknown>>>;
    (paths["/store/inventory"]?.get as Record<string, unknown>).security = [];
    fake = await startOpenApiFake({ vendor: "Petstore", document: document as never, apiRoot: "/api/v3" });
    tools = (
      await openApiTools({
        document,
        baseUrl: `${fake.url}/api/v3`,
        env: { PETSTORE_KEY: KEY },
        auth: { api_key: "${PETSTORE_KEY}" },
        logger: capturedLogger().logger,
      })
    ).tools();
  });
  afterAll(() => fake?.close());

  it("security: [] sends no key; an operation under the key's scheme sends it", async () => {
    expect(await run(byName(tools, "get_inventory"), {})).not.toMatch(/^error/);
    expect(fake.requests.at(-1)).toMatchObject({ path: "/api/v3/store/inventory", status: 200 });
    expect(fake.requests.at(-1)?.headers.api_key).toBeUndefined();

    expect(await run(byName(tools, "get_pet_by_id"), { petId: 10 })).not.toMatch(/^error/);
    expect(fake.requests.at(-1)?.headers.api_key).toBe(KEY);
  });
});

describe("each security scheme sent as the description says", () => {
  const ok = { "200": { description: "ok", content: { "application/json": { example: { ok: true } } } } };
  const keyParameter = { name: "key", in: "query", required: true, schema: { type: "string" } };
  const DOCUMENT = {
    openapi: "3.0.3",
    info: { title: "Schemes", version: "1" },
    components: {
      securitySchemes: {
        queryKey: { type: "apiKey", in: "query", name: "key" },
        login: { type: "http", scheme: "basic" },
        oauth: { type: "oauth2", flows: { clientCredentials: { tokenUrl: "/token", scopes: {} } } },
      },
    },
    // The key's query parameter declared too, as many descriptions do (the fake refuses an undeclared
    // one): it is the client's to send, not an argument the model gives.
    paths: {
      "/by-key": {
        get: {
          operationId: "byKey",
          parameters: [keyParameter],
          security: [{ queryKey: [] }],
          responses: ok,
        },
      },
      "/by-login": {
        get: { operationId: "byLogin", security: [{ oauth: [] }, { login: [] }], responses: ok },
      },
      "/open": {
        get: {
          operationId: "open",
          parameters: [keyParameter],
          security: [{}, { queryKey: [] }],
          responses: ok,
        },
      },
      "/both": {
        get: {
          operationId: "both",
          parameters: [keyParameter],
          security: [{ queryKey: [], login: [] }],
          responses: ok,
        },
      },
    },
  };
  let fake: VendorServer;
  let tools: AgentTool[];
  const env = { SCHEMES_KEY: "query-key-88", SCHEMES_USER: "robot", SCHEMES_PASSWORD: "pa:ss-word-19" };
  const basic = `Basic ${Buffer.from("robot:pa:ss-word-19").toString("base64")}`;

  beforeAll(async () => {
    fake = await startOpenApiFake({ vendor: "Schemes", document: DOCUMENT as never });
    tools = (
      await openApiTools({
        document: DOCUMENT,
        baseUrl: fake.url,
        env,
        auth: { queryKey: "${SCHEMES_KEY}", login: "${SCHEMES_USER}:${SCHEMES_PASSWORD}" },
        logger: capturedLogger().logger,
      })
    ).tools();
  });
  afterAll(() => fake?.close());

  it("a key in the query, basic credentials, a requirement met by its second choice, one needing both", async () => {
    const sent = async (tool: string) => {
      expect(await run(byName(tools, tool), {})).toContain('"ok": true');
      const request = fake.requests.at(-1);
      return { key: request?.query.get("key") ?? undefined, authorization: request?.headers.authorization };
    };
    expect(
      Object.keys(
        (toJsonSchema(byName(tools, "by_key").tool.schema as never) as { properties?: object }).properties ??
          {},
      ),
    ).toEqual([]);
    expect(await sent("by_key")).toEqual({ key: env.SCHEMES_KEY, authorization: undefined });
    expect(await sent("by_login")).toEqual({ key: undefined, authorization: basic });
    // `{}` first: the API takes the call without; the scheme named after it is preferred when configured.
    expect(await sent("open")).toEqual({ key: env.SCHEMES_KEY, authorization: undefined });
    expect(await sent("both")).toEqual({ key: env.SCHEMES_KEY, authorization: basic });
  });
});

describe("an API that redirects elsewhere", () => {
  let trap: Awaited<ReturnType<typeof startTrap>>;
  let redirecting: Server;
  let tools: AgentTool[];

  beforeAll(async () => {
    trap = await startTrap();
    redirecting = createServer((_req, res) => {
      res.writeHead(307, { location: `${trap.url}/collect?from=api` });
      res.end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, "127.0.0.1", resolve));
    const document = {
      openapi: "3.0.3",
      info: { title: "Moved", version: "1" },
      components: { securitySchemes: { key: { type: "apiKey", in: "header", name: "X-Api-Key" } } },
      security: [{ key: [] }],
      paths: { "/items": { get: { operationId: "listItems", responses: { "200": { description: "ok" } } } } },
    };
    tools = (
      await openApiTools({
        document,
        baseUrl: `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`,
        env: { MOVED_KEY: "moved-key-31e" },
        auth: { key: "${MOVED_KEY}" },
        logger: capturedLogger().logger,
      })
    ).tools();
  });
  afterAll(async () => {
    await new Promise((resolve) => redirecting?.close(resolve));
    await trap?.close();
  });

  it("is not followed: the key never reaches the other host, and the model is told why", async () => {
    const answer = await run(byName(tools, "list_items"), {});
    expect(answer).toBe(
      `error: The Moved API redirected GET /items to ${trap.url} (HTTP 307): redirects are not followed, so credentials reach the base URL only; set base_url to where the API answers.`,
    );
    expect(trap.hits).toEqual([]);
  });
});

describe("bodies composed with allOf and oneOf, checked by a fake made from the description", () => {
  const DOCUMENT = {
    openapi: "3.1.0",
    info: { title: "Things", version: "1" },
    servers: [{ url: "/v1" }],
    components: {
      securitySchemes: { token: { type: "http", scheme: "bearer" } },
      schemas: {
        Named: {
          type: "object",
          required: ["name"],
          properties: { name: { type: "string", minLength: 1 } },
        },
        Thing: {
          allOf: [
            { $ref: "#/components/schemas/Named" },
            {
              type: "object",
              required: ["size"],
              properties: {
                size: { oneOf: [{ type: "integer" }, { type: "string", enum: ["small", "large"] }] },
                note: { type: ["string", "null"] },
              },
            },
          ],
        },
      },
    },
    security: [{ token: [] }],
    paths: {
      "/things": {
        post: {
          operationId: "createThing",
          summary: "Create a thing",
          requestBody: {
            required: true,
            content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } },
          },
          responses: {
            "201": {
              description: "Created",
              content: { "application/json": { schema: { type: "object" }, example: { id: 1 } } },
            },
          },
        },
      },
      "/things/{thingId}": {
        head: {
          operationId: "thingExists",
          parameters: [{ name: "thingId", in: "path", required: true, schema: { type: "string" } }],
          responses: { "200": { description: "There" } },
        },
      },
    },
  };
  let fake: VendorServer;
  let api: OpenApiTools;

  beforeAll(async () => {
    fake = await startOpenApiFake({ vendor: "Things", document: DOCUMENT as never, apiRoot: "/v1" });
    api = await openApiTools({
      document: DOCUMENT,
      baseUrl: `${fake.url}/v1`,
      env: { THINGS_TOKEN: "things-token-9c" },
      auth: { token: "${THINGS_TOKEN}" },
      logger: capturedLogger().logger,
    });
  });
  afterAll(() => fake?.close());

  it("offers the merged body every provider takes, and sends what the API validates", async () => {
    const tools = api.tools();
    const create = byName(tools, "create_thing");
    const parameters = toJsonSchema(create.tool.schema as Parameters<typeof toJsonSchema>[0]) as {
      properties: { body: { properties: Record<string, unknown>; required: string[] } };
    };
    expect(Object.keys(parameters.properties.body.properties).sort()).toEqual(["name", "note", "size"]);
    expect(parameters.properties.body.required.sort()).toEqual(["name", "size"]);
    for (const provider of PROVIDER_NAMES) {
      const { model } = await createChatModel({ env: llm.envFor(provider) });
      const bound = (model as Required<Pick<typeof model, "bindTools">>).bindTools([create.tool]);
      expect((await bound.invoke("hello")).text, provider).toBe("Which operation?");
    }

    expect(create.confirm?.({ body: { name: "box", size: "small" } })).toBe("Create a thing. (POST /things)");
    expect(await run(create, { body: { name: "box", size: 3, note: null } })).toContain('"id": 1');
    const sent = fake.requests.at(-1);
    expect(sent).toMatchObject({
      method: "POST",
      path: "/v1/things",
      status: 201,
      body: { name: "box", size: 3 },
    });
    expect(sent?.headers.authorization).toBe("Bearer things-token-9c");
    // Arguments the body's schema refuses are refused before anything is sent (or asked).
    expect(create.confirm?.({ body: { size: 3 } })).toBeUndefined();
    expect(fake.requests.length).toBe(1);
  });

  it("HEAD reads without asking", async () => {
    const exists = byName(api.tools(), "thing_exists");
    expect(exists.confirm).toBeUndefined();
    expect(await run(exists, { thingId: "a/b" })).toBe("Done: the API answered without a body.");
    expect(fake.requests.at(-1)).toMatchObject({ method: "HEAD", path: "/v1/things/a%2Fb" });
  });
});

describe("a definition that cannot work is refused at once, naming the field", () => {
  const logger = capturedLogger().logger;
  const document = { document: SPEC, baseUrl: "http://127.0.0.1:9/api/v3", env: {}, logger };

  it("auth naming no scheme of the description, a secret written in place, a scheme it cannot send", async () => {
    await expect(openApiTools({ ...document, auth: { apikey: "${KEY}" } })).rejects.toThrow(
      'auth.apikey: OpenAPI description openapi.yaml defines no security scheme "apikey"; its schemes are: petstore_auth, api_key.',
    );
    const error = await openApiTools({ ...document, auth: { api_key: "sk-live-123" } }).catch(
      (e: Error) => e,
    );
    expect(String(error)).toContain(
      "auth.api_key must name the environment variable that holds the secret, as ${VAR}",
    );
    expect(String(error)).not.toContain("sk-live-123");
    // An implicit flow's access token is taken (sent as bearer); an HTTP digest scheme is not.
    await expect(openApiTools({ ...document, auth: { petstore_auth: "${TOKEN}" } })).resolves.toBeDefined();
    const digest = {
      openapi: "3.0.3",
      info: { title: "Digest", version: "1" },
      paths: { "/x": { get: { operationId: "getX", responses: { 200: { description: "ok" } } } } },
      components: { securitySchemes: { digest: { type: "http", scheme: "digest" } } },
    };
    await expect(
      openApiTools({ ...document, document: digest, auth: { digest: "${TOKEN}" } }),
    ).rejects.toThrow(/auth\.digest: the "digest" scheme \(http digest\) is not one Switchboard sends/);
  });

  it("no usable base URL, a file that is not there, a description that is not OpenAPI", async () => {
    const relative = { ...DESCRIPTION_WITH_RELATIVE_SERVER };
    await expect(openApiTools({ document: relative, env: {}, logger })).rejects.toThrow(
      'The OpenAPI description names no absolute server (its first server is "/v1"): set base_url to the API\'s address.',
    );
    await expect(openApiTools({ ...document, baseUrl: "ftp://host/" })).rejects.toThrow(/set base_url/);
    await expect(openApiTools({ ...document, document: "/nowhere/api.yaml" })).rejects.toThrow(
      "OpenAPI description api.yaml: cannot be read (ENOENT).",
    );
    await expect(openApiTools({ ...document, document: { info: {} } })).rejects.toThrow(
      "has no `openapi: 3.x` field",
    );
  });

  it("a Swagger 2 description is converted; its host and base path are the default base URL", async () => {
    const swagger = {
      swagger: "2.0",
      info: { title: "Old", version: "1" },
      host: "old.example.test",
      basePath: "/api",
      schemes: ["https"],
      securityDefinitions: { key: { type: "apiKey", in: "query", name: "key" } },
      paths: {
        "/items/{id}": {
          get: {
            operationId: "getItem",
            parameters: [{ name: "id", in: "path", required: true, type: "string" }],
            responses: { "200": { description: "ok" } },
          },
        },
      },
    };
    const old = await openApiTools({ document: swagger, env: {}, auth: { key: "${OLD_KEY}" }, logger });
    expect(old.baseUrl).toBe("https://old.example.test/api");
    expect(old.names).toEqual(["get_item"]);
  });

  it("a description at a URL: its relative server read against it; $refs to its own origin only, its token never shown", async () => {
    const trap = await startTrap();
    const described = (response: unknown) => ({
      openapi: "3.0.3",
      info: { title: "Remote", version: "1" },
      servers: [{ url: "/api" }],
      paths: { "/x": { get: { operationId: "getX", responses: { "200": response } } } },
    });
    const bodies: Record<string, unknown> = {
      "/good.json": described({ $ref: "/shared.json#/ok" }),
      "/shared.json": { ok: { description: "ok" } },
      "/local-file.json": described({ $ref: "file:///etc/passwd" }),
      "/elsewhere.json": described({ $ref: `${trap.url}/shared.json#/ok` }),
    };
    const served = createServer((req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(bodies[new URL(req.url ?? "/", "http://x").pathname] ?? {}));
    });
    await new Promise<void>((resolve) => served.listen(0, "127.0.0.1", resolve));
    const root = `http://127.0.0.1:${(served.address() as AddressInfo).port}`;
    const refused = (file: string) =>
      openApiTools({ document: `${root}${file}?token=doc-secret-55`, env: {}, logger }).then(
        () => "read",
        (error: Error) => error.message,
      );
    try {
      const good = await openApiTools({ document: `${root}/good.json?token=doc-secret-55`, env: {}, logger });
      expect(good.baseUrl).toBe(`${root}/api`);
      expect(good.names).toEqual(["get_x"]);
      for (const file of ["/local-file.json", "/elsewhere.json"]) {
        const message = await refused(file);
        expect(message).toMatch(
          /^OpenAPI description http:\/\/127\.0\.0\.1:\d+\/[\w-]+\.json\?token=\*+: has a \$ref that cannot be resolved/,
        );
        expect(message).not.toContain("doc-secret-55");
        expect(message).not.toContain("root:");
      }
      expect(trap.hits).toEqual([]);
    } finally {
      await new Promise((resolve) => served.close(resolve));
      await trap.close();
    }
  });
});

const DESCRIPTION_WITH_RELATIVE_SERVER = {
  openapi: "3.0.3",
  info: { title: "Relative", version: "1" },
  servers: [{ url: "/v1" }],
  paths: { "/x": { get: { operationId: "getX", responses: { "200": { description: "ok" } } } } },
};
