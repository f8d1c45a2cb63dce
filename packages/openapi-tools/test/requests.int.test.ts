// biome-ignore-all lint/suspicious/noTemplateCurlyInString: auth values refer to variables as ${VAR}, on purpose.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import type { AgentTool } from "@switchboard/agent-runtime";
import { createLogger } from "@switchboard/common";
import { type OpenApiFake, startOpenApiFake } from "@switchboard-testing/fake-vendors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type OpenApiTools, openApiTools } from "../src/index.js";

const FIXTURE = join(import.meta.dirname, "fixtures", "fleet-ops.yaml");
const DOCUMENT = parse(readFileSync(FIXTURE, "utf8")) as Record<string, unknown>;

/** The credentials the fake accepts, and the variables the tools read them from. */
const SECRETS = {
  FLEET_KEY: "header-key-4f1c",
  FLEET_QUERY_KEY: "query-key-77d0",
  FLEET_SESSION: "session-c0ffee",
  FLEET_USER: "robot",
  FLEET_PASSWORD: "pa:ss-w0rd-19",
  FLEET_TOKEN: "bearer-token-9e2a",
  FLEET_CLIENT_ID: "fleet-client",
  FLEET_CLIENT_SECRET: "client-secret-5b7e",
};
const FAKE_CREDENTIALS = {
  apiKeyHeader: SECRETS.FLEET_KEY,
  apiKeyQuery: SECRETS.FLEET_QUERY_KEY,
  apiKeyCookie: SECRETS.FLEET_SESSION,
  basicAuth: `${SECRETS.FLEET_USER}:${SECRETS.FLEET_PASSWORD}`,
  bearerAuth: SECRETS.FLEET_TOKEN,
  oauthClient: `${SECRETS.FLEET_CLIENT_ID}:${SECRETS.FLEET_CLIENT_SECRET}`,
};
const AUTH = {
  apiKeyHeader: "${FLEET_KEY}",
  apiKeyQuery: "${FLEET_QUERY_KEY}",
  basicAuth: "${FLEET_USER}:${FLEET_PASSWORD}",
  bearerAuth: "${FLEET_TOKEN}",
  oauthClient: "${FLEET_CLIENT_ID}:${FLEET_CLIENT_SECRET}",
};

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

/** No secret in any text the model, the user or the log may see. */
function expectNoSecret(...texts: string[]) {
  for (const text of texts)
    for (const secret of Object.values(SECRETS).filter((value) => value.length > 6))
      expect(text).not.toContain(secret);
}

describe("every scheme and parameter style of a description, against the fake made from it", () => {
  let fake: OpenApiFake;
  let api: OpenApiTools;
  let tools: AgentTool[];
  const log = capturedLogger();

  beforeAll(async () => {
    fake = await startOpenApiFake({
      vendor: "Fleet Ops",
      document: DOCUMENT as never,
      credentials: FAKE_CREDENTIALS,
    });
    api = await openApiTools({
      document: FIXTURE,
      baseUrl: fake.url,
      env: SECRETS,
      auth: AUTH,
      logger: log.logger,
    });
    tools = api.tools();
  });
  afterAll(() => fake?.close());

  const last = () => {
    const request = fake.requests.at(-1);
    const seen = fake.received.at(-1);
    return { request, credentials: seen?.credentials.map(({ scheme, how }) => `${scheme}: ${how}`) };
  };

  it("offers each operation whose body it can send; an XML body is left out, naming why", () => {
    expect(api.names).toEqual([
      "get_health",
      "list_machines",
      "create_machine",
      "get_machine",
      "update_machine",
      "reboot_machine",
      "get_machine_stats",
      "upload_machine_file",
      "create_grant",
      "get_report",
      "get_label",
    ]);
    expect(log.output()).toContain(
      "PUT /machines/{machineId}/config (putMachineConfig): its request body is application/xml; Switchboard sends JSON, form and multipart bodies",
    );
  });

  it("security: [] sends nothing: no key, no cookie, no Authorization", async () => {
    expect(await run(byName(tools, "get_health"), {})).not.toMatch(/^error/);
    const { request, credentials } = last();
    expect(request).toMatchObject({ path: "/health", status: 200 });
    expect(credentials).toEqual([]);
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.headers.cookie).toBeUndefined();
    expect(request?.headers["x-api-key"]).toBeUndefined();
  });

  it("array and object query parameters in every style, header and cookie parameters, the key in its header", async () => {
    const answer = await run(byName(tools, "list_machines"), {
      status: ["running", "stopped"],
      ids: ["m-1", "m,2"],
      tags: ["gpu", "spot"],
      zones: ["eu-1", "eu-2"],
      filter: { owner: "ops team", kind: "vm" },
      "X-Request-Id": "req-42",
      "X-Request-Tags": "nightly",
      prefs: "dark mode; compact",
    });
    expect(answer).not.toMatch(/^error/);
    const { request, credentials } = last();
    expect(request?.status).toBe(200);
    expect(request?.target).toBe(
      "/machines?status=running&status=stopped&ids=m-1,m%2C2&tags=gpu%20spot&zones=eu-1|eu-2&filter%5Bowner%5D=ops%20team&filter%5Bkind%5D=vm",
    );
    expect(request?.headers["x-request-id"]).toBe("req-42");
    expect(request?.headers["x-request-tags"]).toBe("nightly");
    expect(request?.headers.cookie).toBe("prefs=dark%20mode%3B%20compact");
    expect(credentials).toEqual(["apiKeyHeader: header X-API-Key"]);
  });

  it("a key in the query; a cookie scheme not configured, so its alternative, basic, is sent", async () => {
    expect(await run(byName(tools, "get_machine"), { machineId: "m-1" })).not.toMatch(/^error/);
    expect(last().credentials).toEqual(["apiKeyQuery: query api_key"]);
    expect(last().request?.query.get("api_key")).toBe(SECRETS.FLEET_QUERY_KEY);
    expect(await run(byName(tools, "reboot_machine"), { machineId: "m-1" })).not.toMatch(/^error/);
    expect(last().credentials).toEqual(["basicAuth: basic"]);
    expect(last().request?.headers.cookie).toBeUndefined();
  });

  it("an API key in a cookie, when configured: the first requirement, beside a cookie parameter of the model's", async () => {
    const withCookie = (
      await openApiTools({
        document: FIXTURE,
        baseUrl: fake.url,
        env: SECRETS,
        auth: { ...AUTH, apiKeyCookie: "${FLEET_SESSION}" },
        logger: log.logger,
      })
    ).tools();
    expect(await run(byName(withCookie, "reboot_machine"), { machineId: "m-1" })).not.toMatch(/^error/);
    expect(last().credentials).toEqual(["apiKeyCookie: cookie session_id"]);
    expect(last().request?.headers.cookie).toBe(`session_id=${SECRETS.FLEET_SESSION}`);
    expect(last().request?.headers.authorization).toBeUndefined();
    expect(await run(byName(withCookie, "list_machines"), { prefs: "compact" })).not.toMatch(/^error/);
    expect(last().request?.headers.cookie).toBe("prefs=compact");
  });

  it("a JSON body under its own media type (merge-patch) is sent as that type", async () => {
    const answer = await run(byName(tools, "update_machine"), { machineId: "m-1", body: { zone: null } });
    expect(answer).not.toMatch(/^error/);
    expect(last().request?.headers["content-type"]).toBe("application/merge-patch+json");
    expect(last().request?.body).toEqual({ zone: null });
  });

  it("a requirement naming an OpenID Connect scheme not configured: its alternative, bearer, is sent", async () => {
    expect(await run(byName(tools, "get_machine_stats"), { machineId: "m-1" })).not.toMatch(/^error/);
    expect(last().credentials).toEqual(["bearerAuth: bearer"]);
  });

  it("matrix and label path parameters, each one segment", async () => {
    expect(await run(byName(tools, "get_report"), { range: "2026-Q1" })).not.toMatch(/^error/);
    expect(last().request?.target).toBe("/reports/;range=2026-Q1");
    expect(await run(byName(tools, "get_label"), { label: "gpu" })).not.toMatch(/^error/);
    expect(last().request?.target).toBe("/labels/.gpu");
  });

  it("a form body arrives as the fake parses it: a list repeated, a deepObject field as an object; basic sent", async () => {
    const answer = await run(byName(tools, "create_grant"), {
      body: { client: "ci-bot", scopes: ["read", "write"], metadata: { team: "platform", ticket: "OPS-7" } },
    });
    expect(answer).not.toMatch(/^error/);
    const { request, credentials } = last();
    expect(request?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(request?.body).toEqual({
      client: "ci-bot",
      scopes: ["read", "write"],
      metadata: { team: "platform", ticket: "OPS-7" },
    });
    expect(credentials).toEqual(["basicAuth: basic"]);
  });

  it("a multipart body: fields, a list, a text file and a base64 file as bytes; a key and a token together", async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255]);
    const answer = await run(byName(tools, "upload_machine_file"), {
      machineId: "m-1",
      body: {
        comment: "nightly",
        labels: ["a", "b"],
        manifest: "kind: Machine\nname: m-1\n",
        icon: png.toString("base64"),
      },
    });
    expect(answer).not.toMatch(/^error/);
    const { request, credentials } = last();
    expect(request?.status).toBe(200);
    expect(request?.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(
      request?.parts?.map(({ name, filename, type, bytes }) => ({ name, filename, type, bytes })),
    ).toEqual([
      { name: "comment", filename: undefined, type: undefined, bytes: 7 },
      { name: "labels", filename: undefined, type: undefined, bytes: 1 },
      { name: "labels", filename: undefined, type: undefined, bytes: 1 },
      { name: "manifest", filename: "manifest", type: "text/yaml", bytes: 24 },
      { name: "icon", filename: "icon", type: "image/png", bytes: png.length },
    ]);
    expect(request?.parts?.find(({ name }) => name === "manifest")?.text).toBe("kind: Machine\nname: m-1\n");
    expect(credentials?.sort()).toEqual(["apiKeyHeader: header X-API-Key", "bearerAuth: bearer"]);
  });

  it("OAuth2 client credentials: a token asked for once at the tokenUrl, kept, sent as bearer; renewed once when refused", async () => {
    const create = byName(tools, "create_machine");
    expect(await run(create, { body: { id: "m-9", name: "builder" } })).not.toMatch(/^error/);
    expect(last().credentials).toEqual(["oauthClient: oauth2 bearer"]);
    const asked = fake.received.filter(({ operationId }) => operationId === "oauth2 token (oauthClient)");
    expect(asked.map(({ credentials }) => credentials)).toEqual([
      [{ scheme: "oauthClient", how: "client basic", valid: true }],
    ]);
    const tokenRequest = fake.requests.find(({ path }) => path === "/oauth/token");
    expect(tokenRequest?.body).toEqual({ grant_type: "client_credentials", scope: "machines:write" });

    expect(await run(create, { body: { id: "m-10", name: "builder" } })).not.toMatch(/^error/);
    expect(fake.issued).toHaveLength(1);

    // The authorization server revokes it: the API answers 401, a new token is asked for, the call made again.
    fake.revokeTokens();
    const before = fake.requests.length;
    expect(await run(create, { body: { id: "m-11", name: "builder" } })).not.toMatch(/^error/);
    expect(fake.issued).toHaveLength(2);
    expect(fake.requests.slice(before).map(({ path, status }) => `${path} ${status}`)).toEqual([
      "/machines 401",
      "/oauth/token 200",
      "/machines 201",
    ]);
    expectNoSecret(log.output());
    for (const token of fake.issued) expect(log.output()).not.toContain(token);
  });

  it("attacks: a path argument escaping by label style, a header line break, a cookie forging the session, a query key", async () => {
    const hits = fake.requests.length;
    // Label style puts a "." before the value: "." would make "..", the parent segment.
    expect(await run(byName(tools, "get_label"), { label: "." })).toBe(
      'error: get_label: label cannot be ".": give the label itself.',
    );
    expect(await run(byName(tools, "get_machine"), { machineId: "../../admin" })).not.toMatch(/^error/);
    expect(last().request?.path).toBe("/machines/..%2F..%2Fadmin");
    expect(fake.requests.length).toBe(hits + 1);

    expect(
      await run(byName(tools, "list_machines"), { "X-Request-Id": "r1\r\nAuthorization: Bearer forged" }),
    ).toMatch(/^error: list_machines: the X-Request-Id header cannot hold a line break/);
    expect(fake.requests.length).toBe(hits + 1);

    await run(byName(tools, "list_machines"), {
      prefs: "x; session_id=forged",
      status: ["a&api_key=forged"],
    });
    const { request } = last();
    expect(request?.headers.cookie).toBe("prefs=x%3B%20session_id%3Dforged");
    expect(request?.query.getAll("api_key")).toEqual([]);
    expect(request?.query.getAll("status")).toEqual(["a&api_key=forged"]);
  });
});

describe("OpenAPI security a definition cannot use, refused at start naming the scheme", () => {
  const logger = capturedLogger().logger;
  const base = { document: FIXTURE, baseUrl: "http://127.0.0.1:9", env: SECRETS, logger };

  it("OpenID Connect, a scheme the description lacks, OAuth2 without id and secret", async () => {
    await expect(openApiTools({ ...base, auth: { oidc: "${FLEET_TOKEN}" } })).rejects.toThrow(
      'auth.oidc: the "oidc" scheme (openIdConnect) is not one Switchboard sends; it sends apiKey (header, query or cookie), HTTP bearer and basic, OAuth2 client credentials, and an access token of OAuth2\'s other flows. Remove auth.oidc, or configure another scheme of OpenAPI description fleet-ops.yaml.',
    );
    await expect(openApiTools({ ...base, auth: { oauthClient: "${FLEET_CLIENT_SECRET}" } })).rejects.toThrow(
      'auth.oauthClient: an OAuth2 client-credentials scheme takes "${CLIENT_ID_VAR}:${CLIENT_SECRET_VAR}"',
    );
    await expect(
      openApiTools({ ...base, tokenUrls: { bearerAuth: "http://127.0.0.1:9/t" } }),
    ).rejects.toThrow("tokenUrls.bearerAuth: no auth.bearerAuth is configured");
  });

  it("servers with variables: defaults, serverVariables, an enum refusing a value, a variable the server lacks", async () => {
    const described = { ...base, baseUrl: undefined };
    delete described.baseUrl;
    expect((await openApiTools(described)).baseUrl).toBe("https://eu.fleet.example.com/v2");
    expect(
      (await openApiTools({ ...described, serverVariables: { region: "us", basePath: "v3" } })).baseUrl,
    ).toBe("https://us.fleet.example.com/v3");
    await expect(openApiTools({ ...described, serverVariables: { region: "evil.test/x" } })).rejects.toThrow(
      'serverVariables.region: "evil.test/x" is not one OpenAPI description fleet-ops.yaml allows for its server; it takes: eu, us, ap.',
    );
    await expect(openApiTools({ ...described, serverVariables: { tenant: "acme" } })).rejects.toThrow(
      'serverVariables.tenant: the first server of OpenAPI description fleet-ops.yaml has no variable "tenant"; its variables are: region, basePath.',
    );
  });
});

/** A server answering each path as the test says: a description, a token endpoint, a trap. */
async function startServer(
  answer: (path: string) => { status?: number; type?: string; body: string | Buffer },
): Promise<{ url: string; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    const {
      status = 200,
      type = "application/json",
      body,
    } = answer(new URL(req.url ?? "/", "http://x").pathname);
    res.writeHead(status, { "content-type": type }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A small description whose one operation takes an OAuth2 client-credentials token from `tokenUrl`. */
function oauthDescription(tokenUrl: string, server = "/api") {
  return {
    openapi: "3.0.3",
    info: { title: "Tokens", version: "1" },
    servers: [{ url: server }],
    components: {
      securitySchemes: {
        cc: { type: "oauth2", flows: { clientCredentials: { tokenUrl, scopes: {} } } },
      },
    },
    security: [{ cc: [] }],
    paths: {
      "/items": {
        get: { operationId: "listItems", responses: { "200": { description: "ok" } } },
      },
    },
  };
}

describe("token URLs a hostile description names, and token endpoints that answer garbage", () => {
  const env = { CC_ID: "client-1", CC_SECRET: "cc-secret-3141" };
  const auth = { cc: "${CC_ID}:${CC_SECRET}" };
  let trap: Awaited<ReturnType<typeof startServer>>;
  let host: Awaited<ReturnType<typeof startServer>>;
  const documents: Record<string, unknown> = {};

  beforeAll(async () => {
    trap = await startServer(() => ({
      body: JSON.stringify({ access_token: "stolen", token_type: "bearer" }),
    }));
    host = await startServer((path) => {
      if (path.startsWith("/docs/")) return { body: JSON.stringify(documents[path.slice(6)] ?? {}) };
      if (path === "/tokens/html") return { type: "text/html", body: "<html>login</html>" };
      if (path === "/tokens/huge")
        return { body: JSON.stringify({ access_token: "a".repeat(200_000), token_type: "bearer" }) };
      if (path === "/tokens/mac") return { body: JSON.stringify({ access_token: "abc", token_type: "mac" }) };
      if (path === "/tokens/header")
        return { body: JSON.stringify({ access_token: "abc\r\nX-Evil: 1", token_type: "bearer" }) };
      if (path === "/tokens/refused")
        return { status: 401, body: JSON.stringify({ error: "invalid_client", echo: env.CC_SECRET }) };
      return { status: 404, body: "{}" };
    });
    documents["other-origin.json"] = oauthDescription(`${trap.url}/token`);
    documents["metadata.json"] = oauthDescription("http://169.254.169.254/latest/token");
    for (const kind of ["html", "huge", "mac", "header", "refused"])
      documents[`${kind}.json`] = oauthDescription(`/tokens/${kind}`);
  });
  afterAll(async () => {
    await Promise.all([trap?.close(), host?.close()]);
  });

  it("a description fetched from a URL may not send the client secret off the API's origin; tokenUrls may, explicitly", async () => {
    const logger = capturedLogger();
    for (const file of ["other-origin.json", "metadata.json"]) {
      const error = await openApiTools({
        document: `${host.url}/docs/${file}`,
        env,
        auth,
        logger: logger.logger,
      }).then(
        () => undefined,
        (e: Error) => e.message,
      );
      expect(error).toMatch(
        /^auth\.cc: the clientCredentials tokenUrl of "cc" in OpenAPI description .* is on http:\/\/[\d.:]+, not the API's origin http:\/\/127\.0\.0\.1:\d+; a description fetched from a URL sends the client secret only to the API's own origin: set tokenUrls\.cc/,
      );
    }
    // The operator names it: taken.
    const allowed = await openApiTools({
      document: `${host.url}/docs/other-origin.json`,
      env,
      auth,
      tokenUrls: { cc: `${trap.url}/token` },
      logger: logger.logger,
    });
    expect(allowed.names).toEqual(["list_items"]);
    // A description given as a file or an object is the operator's own: its token URL is taken as written.
    expect(
      (
        await openApiTools({
          document: oauthDescription(`${trap.url}/token`, host.url),
          env,
          auth,
          logger: logger.logger,
        })
      ).names,
    ).toEqual(["list_items"]);
    expect(trap.hits).toEqual([]);
  });

  it("garbage, a huge answer, a token of another type, a token with a line break, a refusal echoing the secret", async () => {
    const logger = capturedLogger();
    const messages: Record<string, string> = {};
    for (const kind of ["html", "huge", "mac", "header", "refused"]) {
      const tools = (
        await openApiTools({ document: `${host.url}/docs/${kind}.json`, env, auth, logger: logger.logger })
      ).tools();
      messages[kind] = await run(byName(tools, "list_items"), {});
    }
    const endpoint = `the token URL of auth.cc (${host.url}/tokens/`;
    expect(messages.html).toBe(
      `error: ${endpoint}html) answered something that is not JSON: check tokenUrls: it is not a token endpoint`,
    );
    expect(messages.huge).toBe(
      `error: ${endpoint}huge) answered more than 65536 bytes: that is no token answer; check tokenUrls`,
    );
    expect(messages.mac).toBe(
      `error: ${endpoint}mac) answered a token of type "mac": Switchboard sends only tokens of type bearer`,
    );
    expect(messages.header).toBe(
      `error: ${endpoint}header) answered no usable access_token: check tokenUrls: it is not a token endpoint`,
    );
    expect(messages.refused).toMatch(
      new RegExp(
        `^error: ${endpoint.replace(/[.()]/g, "\\$&")}refused\\) answered HTTP 401 \\(invalid_client\\): check the variables in auth\\.cc of OpenAPI description`,
      ),
    );
    // No API call was made with a bad token, and the client secret shows nowhere.
    expect(host.hits.filter((hit) => hit.startsWith("GET /api/"))).toEqual([]);
    for (const text of [...Object.values(messages), logger.output()]) {
      expect(text).not.toContain(env.CC_SECRET);
      expect(text).not.toContain(Buffer.from(`${env.CC_ID}:${env.CC_SECRET}`).toString("base64"));
    }
  });
});
