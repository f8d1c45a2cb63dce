import { describe, expect, it } from "vitest";
import { readWebSettings } from "./env.js";

const oidc = { OIDC_ISSUER: "https://idp.example.com/realms/caipe", OIDC_CLIENT_ID: "caipe-ui" };

describe("the web chat's sign-in settings", () => {
  it("signs users in on CAIPE's SSO_ENABLED=true with OIDC_ISSUER and OIDC_CLIENT_ID alone", () => {
    expect(readWebSettings({ SSO_ENABLED: "true", ...oidc }).signIn).toEqual({
      mode: "oidc",
      issuer: oidc.OIDC_ISSUER,
      clientId: "caipe-ui",
      scope: "openid profile",
    });
    // Switchboard's own name keeps working, and the two may say the same.
    expect(readWebSettings({ AUTH_MODE: "jwt", ...oidc }).signIn.mode).toBe("oidc");
    expect(readWebSettings({ AUTH_MODE: "jwt", SSO_ENABLED: "true", ...oidc }).signIn.mode).toBe("oidc");
  });

  it("signs nobody in when neither asks, or SSO_ENABLED=false", () => {
    expect(readWebSettings({ ...oidc }).signIn).toEqual({ mode: "none" });
    expect(readWebSettings({ SSO_ENABLED: "false", ...oidc }).signIn).toEqual({ mode: "none" });
    expect(readWebSettings({ AUTH_MODE: "none", SSO_ENABLED: "false" }).signIn).toEqual({ mode: "none" });
  });

  it("stops the start when SSO_ENABLED=true is half set, naming what is missing", () => {
    expect(() => readWebSettings({ SSO_ENABLED: "true", OIDC_ISSUER: oidc.OIDC_ISSUER })).toThrow(
      /^SSO_ENABLED=true: the web chat signs users in with OpenID Connect; set OIDC_CLIENT_ID \(a public client/,
    );
    expect(() => readWebSettings({ SSO_ENABLED: "true", OIDC_CLIENT_ID: "caipe-ui" })).toThrow(
      /^SSO_ENABLED=true: .*; set OIDC_ISSUER \(your identity provider\)\.$/,
    );
  });

  it("stops the start when AUTH_MODE and SSO_ENABLED disagree, naming both", () => {
    for (const env of [
      { AUTH_MODE: "none", SSO_ENABLED: "true", ...oidc },
      { AUTH_MODE: "jwt", SSO_ENABLED: "false", ...oidc },
    ]) {
      expect(() => readWebSettings(env)).toThrow(
        new RegExp(`^AUTH_MODE=${env.AUTH_MODE} and SSO_ENABLED=${env.SSO_ENABLED} \\(CAIPE's\\) disagree`),
      );
    }
  });

  it("reads the dynamic-agents host from CAIPE's DYNAMIC_AGENTS_URL, off when unset, and refuses one that is not http(s)", () => {
    expect(readWebSettings({}).dynamicAgentsUrl).toBeUndefined();
    expect(readWebSettings({ DYNAMIC_AGENTS_URL: "http://dynamic-agents:8100" }).dynamicAgentsUrl?.href).toBe(
      "http://dynamic-agents:8100/",
    );
    expect(() => readWebSettings({ DYNAMIC_AGENTS_URL: "file:///etc/passwd" })).toThrow(/DYNAMIC_AGENTS_URL/);
  });
});

describe("the web chat's knowledge base settings (CAIPE's ENABLE_RAG, RAG_SERVER_URL)", () => {
  it("offers the Sources page only with ENABLE_RAG=true, at CAIPE's default RAG server", () => {
    expect(readWebSettings({}).ragServerUrl).toBeUndefined();
    expect(
      readWebSettings({ ENABLE_RAG: "false", RAG_SERVER_URL: "http://rag:9446" }).ragServerUrl,
    ).toBeUndefined();
    expect(readWebSettings({ ENABLE_RAG: "true" }).ragServerUrl?.href).toBe("http://localhost:9446/");
    expect(
      readWebSettings({ ENABLE_RAG: "true", RAG_SERVER_URL: "https://rag.example.com/kb" }).ragServerUrl
        ?.href,
    ).toBe("https://rag.example.com/kb");
  });

  it("refuses credentials in RAG_SERVER_URL and a switch that is not true or false, naming the fix", () => {
    expect(() =>
      readWebSettings({ ENABLE_RAG: "true", RAG_SERVER_URL: "http://svc:hunter2@rag:9446" }),
    ).toThrow(/put no user name or password in RAG_SERVER_URL/);
    expect(() => readWebSettings({ ENABLE_RAG: "yes please" })).toThrow(/set ENABLE_RAG to true or false/);
  });
});
