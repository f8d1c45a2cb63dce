import { describe, expect, it } from "vitest";
import { readMcpServerSettings } from "./env.js";

describe("the MCP server's settings", () => {
  it("runs locally with nothing set: the supervisor and web chat on their contract ports, no auth", () => {
    const settings = readMcpServerSettings({});
    expect(settings).toMatchObject({
      port: 3002,
      supervisorUrl: "http://localhost:8000",
      webUrl: "http://localhost:3000",
      auth: { mode: "none" },
      token: undefined,
    });
  });

  it("asks for AUTH_ISSUER under jwt, naming why: the resource metadata points clients there", () => {
    expect(() =>
      readMcpServerSettings({
        AUTH_MODE: "jwt",
        AUTH_JWKS_URL: "https://idp.example.com/jwks",
        AUTH_AUDIENCE: "urn:switchboard:api",
        AUTH_ALLOW_ANY_AUDIENCE: "true",
      }),
    ).toThrow(/AUTH_MODE=jwt needs AUTH_ISSUER on the MCP server: its protected-resource metadata names/);
  });

  it("takes the audience a token must name for this server (default: its resource, known once it listens)", () => {
    expect(readMcpServerSettings({}).audience).toBeUndefined();
    expect(readMcpServerSettings({ MCP_SERVER_AUDIENCE: " urn:switchboard:api " }).audience).toBe(
      "urn:switchboard:api",
    );
  });

  it("names a bad URL setting", () => {
    expect(() => readMcpServerSettings({ CAIPE_URL: "ftp://supervisor" })).toThrow(/CAIPE_URL/);
  });
});
