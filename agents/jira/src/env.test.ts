import { describe, expect, it } from "vitest";
import { readJiraSettings } from "./env.js";

describe("the Jira agent's settings under CAIPE's names", () => {
  it("takes JIRA_URL, JIRA_EMAIL and JIRA_API_TOKEN when the ATLASSIAN_* names are unset", () => {
    const env = { JIRA_URL: "https://jira.example.com/", JIRA_EMAIL: "me@example.com", JIRA_API_TOKEN: "t1" };
    expect(readJiraSettings(env)).toMatchObject({
      url: "https://jira.example.com",
      email: "me@example.com",
      token: "t1",
    });
  });

  it("prefers ATLASSIAN_API_URL, ATLASSIAN_EMAIL and ATLASSIAN_TOKEN, as CAIPE's Jira client does", () => {
    const env = {
      ATLASSIAN_API_URL: "https://a.atlassian.net",
      JIRA_API_URL: "https://b.example.com",
      JIRA_URL: "https://c.example.com",
      ATLASSIAN_EMAIL: "a@example.com",
      JIRA_EMAIL: "b@example.com",
      JIRA_USER: "c@example.com",
      ATLASSIAN_TOKEN: "ta",
      JIRA_TOKEN: "tb",
    };
    expect(readJiraSettings(env)).toMatchObject({
      url: "https://a.atlassian.net",
      email: "a@example.com",
      token: "ta",
    });
  });

  it("names the missing settings", () => {
    expect(() => readJiraSettings({ JIRA_USER: "me@example.com" })).toThrow(
      /set ATLASSIAN_API_URL, ATLASSIAN_TOKEN/,
    );
  });

  it("verifies TLS unless ATLASSIAN_VERIFY_SSL=false", () => {
    const env = { JIRA_URL: "https://jira.internal", JIRA_EMAIL: "me@example.com", JIRA_TOKEN: "t" };
    expect(readJiraSettings(env).verifyTls).toBe(true);
    expect(readJiraSettings({ ...env, ATLASSIAN_VERIFY_SSL: "true" }).verifyTls).toBe(true);
    expect(readJiraSettings({ ...env, ATLASSIAN_VERIFY_SSL: "False" }).verifyTls).toBe(false);
  });
});
