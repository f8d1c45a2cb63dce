import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OpenApiFake, startOpenApiFake } from "./openapi-fake.js";

const ok = { "200": { description: "ok", content: { "application/json": { example: { ok: true } } } } };
const DOCUMENT = {
  openapi: "3.0.3",
  info: { title: "Guarded", version: "1" },
  components: {
    securitySchemes: {
      key: { type: "apiKey", in: "header", name: "X-Key" },
      login: { type: "http", scheme: "basic" },
      cc: { type: "oauth2", flows: { clientCredentials: { tokenUrl: "/oauth/token", scopes: {} } } },
    },
  },
  security: [{ key: [] }],
  paths: {
    "/open": { get: { operationId: "open", security: [], responses: ok } },
    "/keyed": { get: { operationId: "keyed", responses: ok } },
    "/either": { get: { operationId: "either", security: [{ cc: [] }, { login: [] }], responses: ok } },
  },
};

describe("the fake enforces a description's security when given credentials", () => {
  let fake: OpenApiFake;
  beforeAll(async () => {
    fake = await startOpenApiFake({
      vendor: "Guarded",
      document: DOCUMENT as never,
      credentials: { key: "k-1", login: "robot:pw", cc: "client:secret" },
    });
  });
  afterAll(() => fake?.close());

  const call = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${fake.url}${path}`, { headers });
    return { status: response.status, body: (await response.json()) as { message?: string } };
  };

  it("401 naming what was wanted and what came; 200 with the right credential", async () => {
    expect(await call("/keyed")).toMatchObject({
      status: 401,
      body: { message: "keyed needs key (apiKey in header X-Key); it received no credential" },
    });
    expect(await call("/keyed", { "x-key": "wrong" })).toMatchObject({
      status: 401,
      body: {
        message:
          "keyed needs key (apiKey in header X-Key); it received key (header X-Key, not the right value)",
      },
    });
    expect((await call("/keyed", { "x-key": "k-1" })).status).toBe(200);
    expect(fake.received.at(-1)).toEqual({
      method: "GET",
      path: "/keyed",
      operationId: "keyed",
      credentials: [{ scheme: "key", how: "header X-Key", valid: true }],
    });
  });

  it("400 when a credential reaches an operation that declares none", async () => {
    expect((await call("/open")).status).toBe(200);
    expect(await call("/open", { "x-key": "k-1" })).toMatchObject({
      status: 400,
      body: {
        message:
          "credential sent to an operation that declares none: open declares security: [] and received key (header X-Key)",
      },
    });
  });

  it("serves the client-credentials token URL; its token is accepted as bearer until revoked", async () => {
    const basic = `Basic ${Buffer.from("client:secret").toString("base64")}`;
    const wrong = await fetch(`${fake.url}/oauth/token`, {
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from("client:nope").toString("base64")}` },
      body: new URLSearchParams({ grant_type: "client_credentials" }),
    });
    expect(wrong.status).toBe(401);
    const answer = await fetch(`${fake.url}/oauth/token`, {
      method: "POST",
      headers: { authorization: basic },
      body: new URLSearchParams({ grant_type: "client_credentials" }),
    });
    const token = ((await answer.json()) as { access_token: string }).access_token;
    expect(fake.issued).toEqual([token]);
    expect((await call("/either", { authorization: `Bearer ${token}` })).status).toBe(200);
    expect(fake.received.at(-1)?.credentials).toEqual([{ scheme: "cc", how: "oauth2 bearer", valid: true }]);
    expect(
      (await call("/either", { authorization: `Basic ${Buffer.from("robot:pw").toString("base64")}` }))
        .status,
    ).toBe(200);
    fake.revokeTokens();
    expect((await call("/either", { authorization: `Bearer ${token}` })).status).toBe(401);
  });
});
