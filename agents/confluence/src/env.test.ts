import { describe, expect, it } from "vitest";
import { readConfluenceSettings } from "./env.js";

describe("the Confluence agent's settings under CAIPE's names", () => {
  it("takes CONFLUENCE_URL, CONFLUENCE_USERNAME and CONFLUENCE_API_TOKEN alone", () => {
    const env = {
      CONFLUENCE_URL: "https://wiki.example.com/wiki",
      CONFLUENCE_USERNAME: "me@example.com",
      CONFLUENCE_API_TOKEN: "t1",
    };
    expect(readConfluenceSettings(env)).toMatchObject({
      verifyTls: true,
      url: "https://wiki.example.com",
      email: "me@example.com",
      token: "t1",
    });
  });

  it("follows CAIPE's precedence: the Confluence URL first, the shared Atlassian account first", () => {
    const env = {
      CONFLUENCE_API_URL: "https://c.atlassian.net",
      ATLASSIAN_API_URL: "https://a.atlassian.net",
      ATLASSIAN_EMAIL: "a@example.com",
      CONFLUENCE_USERNAME: "c@example.com",
      ATLASSIAN_TOKEN: "ta",
      CONFLUENCE_API_TOKEN: "tc",
    };
    expect(readConfluenceSettings(env)).toMatchObject({
      url: "https://c.atlassian.net",
      email: "a@example.com",
      token: "ta",
    });
  });

  it("verifies TLS unless ATLASSIAN_VERIFY_SSL=false", () => {
    const env = {
      CONFLUENCE_URL: "https://wiki.internal",
      CONFLUENCE_USER: "me@example.com",
      CONFLUENCE_TOKEN: "t",
    };
    expect(readConfluenceSettings(env).verifyTls).toBe(true);
    expect(readConfluenceSettings({ ...env, ATLASSIAN_VERIFY_SSL: "true" }).verifyTls).toBe(true);
    expect(readConfluenceSettings({ ...env, ATLASSIAN_VERIFY_SSL: "False" }).verifyTls).toBe(false);
  });
});
