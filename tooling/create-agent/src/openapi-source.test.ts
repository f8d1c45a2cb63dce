// biome-ignore-all lint/suspicious/noTemplateCurlyInString: credentials name their variables as ${VAR}, on purpose.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadOpenApiSource } from "./openapi-source.js";

const dir = mkdtempSync(join(tmpdir(), "openapi-source-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A description whose one operation names `requirements`, with `schemes` defined. */
async function sourceWith(schemes: Record<string, unknown>, requirements: Array<Record<string, string[]>>) {
  const file = join(dir, `${Object.keys(schemes).join("-") || "none"}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      openapi: "3.0.3",
      info: { title: "Things", version: "1" },
      paths: {
        "/things": {
          get: {
            operationId: "listThings",
            security: requirements,
            responses: { 200: { description: "ok" } },
          },
        },
      },
      components: { securitySchemes: schemes },
    }),
  );
  return loadOpenApiSource(file, "THINGS");
}

describe("the credential variables of a description's security schemes", () => {
  it("names the one scheme's credential <NAME>_API_KEY, whatever its kind", async () => {
    for (const scheme of [
      { type: "apiKey", in: "header", name: "X-Key" },
      { type: "apiKey", in: "cookie", name: "session" },
      { type: "http", scheme: "bearer" },
    ]) {
      const { credentials } = await sourceWith({ main: scheme }, [{ main: [] }]);
      expect(credentials).toMatchObject([
        { scheme: "main", template: "${THINGS_API_KEY}", variables: ["THINGS_API_KEY"] },
      ]);
    }
  });

  it("names a user and password for HTTP basic, a client id and secret for OAuth2 client credentials", async () => {
    const basic = await sourceWith({ basic: { type: "http", scheme: "basic" } }, [{ basic: [] }]);
    expect(basic.credentials[0]?.template).toBe("${THINGS_API_USER}:${THINGS_API_PASSWORD}");
    const oauth = await sourceWith(
      { oauth: { type: "oauth2", flows: { clientCredentials: { tokenUrl: "/token", scopes: {} } } } },
      [{ oauth: [] }],
    );
    expect(oauth.credentials[0]?.template).toBe("${THINGS_CLIENT_ID}:${THINGS_CLIENT_SECRET}");
  });

  it("names an access token for OAuth2's other flows (a token obtained outside the agent, sent as bearer)", async () => {
    for (const flows of [
      { authorizationCode: { authorizationUrl: "https://x/a", tokenUrl: "https://x/t", scopes: {} } },
      { implicit: { authorizationUrl: "https://x/a", scopes: {} } },
      { password: { tokenUrl: "https://x/t", scopes: {} } },
    ]) {
      const source = await sourceWith({ oauth: { type: "oauth2", flows } }, [{ oauth: [] }]);
      expect(source.credentials).toMatchObject([
        { scheme: "oauth", template: "${THINGS_ACCESS_TOKEN}", variables: ["THINGS_ACCESS_TOKEN"] },
      ]);
      expect(source.credentials[0]?.sent).toMatch(/bearer token/);
      expect(source.unsupportedSchemes).toEqual([]);
    }
  });

  it("names several schemes after themselves, and leaves out those nothing uses or nothing can send", async () => {
    const source = await sourceWith(
      {
        apiToken: { type: "apiKey", in: "query", name: "token" },
        admin: { type: "http", scheme: "basic" },
        bearer: { type: "http", scheme: "bearer" },
        implicit: { type: "oauth2", flows: { implicit: { authorizationUrl: "https://x/a", scopes: {} } } },
        oidc: { type: "openIdConnect", openIdConnectUrl: "https://x/.well-known/openid-configuration" },
        unused: { type: "apiKey", in: "header", name: "X-Unused" },
      },
      [{ apiToken: [] }, { admin: [] }, { bearer: [] }, { implicit: [] }, { oidc: [] }],
    );
    // The implicit flow's token is left to the schemes the agent sends without one (Petstore, Discord).
    expect(source.credentials.map(({ scheme, template }) => [scheme, template])).toEqual([
      ["apiToken", "${THINGS_API_TOKEN}"],
      ["admin", "${THINGS_ADMIN_USER}:${THINGS_ADMIN_PASSWORD}"],
      ["bearer", "${THINGS_BEARER_KEY}"],
    ]);
    expect(source.unsupportedSchemes).toEqual(["implicit", "oidc"]);
  });

  it("names each OAuth2 user flow's token after its scheme when those are all it has", async () => {
    const flow = { authorizationUrl: "https://x/a", tokenUrl: "https://x/t", scopes: {} };
    const source = await sourceWith(
      {
        user: { type: "oauth2", flows: { authorizationCode: flow } },
        app: { type: "oauth2", flows: { implicit: { authorizationUrl: "https://x/a", scopes: {} } } },
      },
      [{ user: [] }, { app: [] }],
    );
    expect(source.credentials.map(({ scheme, template }) => [scheme, template])).toEqual([
      ["user", "${THINGS_USER_ACCESS_TOKEN}"],
      ["app", "${THINGS_APP_ACCESS_TOKEN}"],
    ]);
  });
});
