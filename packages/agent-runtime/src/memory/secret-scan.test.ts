import { describe, expect, it } from "vitest";
import { findSecret } from "./secret-scan.js";

// Test values are assembled from pieces so that this file itself holds no token a scanner flags.
const jwt = [
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9",
  "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ",
  "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
].join(".");

/** One of each kind the README says memory refuses, as a user would say it. */
export const SECRETS: Array<[kind: string, text: string]> = [
  ["GitLab token", `my gitlab token is glpat-${"xY3kP9qLm2Vn8RtW4zAb"}`],
  ["GitLab token, bare", `use glpat-${"xY3kP9qLm2Vn8RtW4zAb"} for the CI`],
  ["JSON Web Token", `the service account uses ${jwt} to call the API`],
  ["OpenAI project key", `openai: ${"sk-proj-"}AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEf`],
  ["Google API key", `maps works with ${"AIza"}SyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY`],
  ["bare AWS secret access key", `the prod one is ${"wJalrXUtnFEMI/K7MDENG/bPxRfiCY"}EXAMPLEKEY`],
  ["AWS secret access key in prose", `remember ${"Je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY"} for staging`],
  ["AWS access key id", `key ${"AKIA"}IOSFODNN7EXAMPLE`],
  ["password then a value", "password hunter2"],
  ["password with a colon", "password: Tr0ub4dor&3"],
  ["password stated", "my password is swordfish"],
  ["token assigned", "JIRA token=4f1c2a9e77"],
  ["password with a symbol", "wifi password Passw0rd!"],
  ["GitHub token", `${"ghp_"}0123456789abcdefghijklmnopqrstuvwxyzAB`],
  ["Slack token", `${"xoxb-"}123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx`],
  ["private key", `-----BEGIN ${"RSA PRIVATE"} KEY-----\nMIIEowIBAAKCAQEA`],
  ["basic-auth URL", `the registry is https://deploy:${"Sup3rS3cret"}@registry.example.com/v2`],
  ["a random string", `the webhook secret ${"Zk3q9XvB2mRt7LpW4nYc8HsD1fGj6KaE"} goes in the header`],
];

/** What people tell an assistant to remember, which must be kept. */
export const ORDINARY: string[] = [
  "The user prefers short answers and works on the payments team in Berlin.",
  "Incident 3f1c2a9e-7b1d-4f7a-9c55-0e9f3a1b2c3d was about the checkout page.",
  "The fix landed in commit 9fceb02d0ae598e95dc970b74767f19372d61af8 last week.",
  "Always open PRs against the release/2024.11 branch of AcmeCorp/payments-service.",
  "The password policy requires rotation every 90 days; the password reset page is at /account.",
  "The user's API key is stored in Vault, never in the repo.",
  "Their Jira token is expired and the password is not shared with the team.",
  "Ask before a password reset; the password manager is 1Password.",
  "The password re-entry screen times out after 5 minutes.",
  "Deployments go through kubernetes-ingress-nginx-controller-v1 in eu-west-1.",
  "They maintain AuthorizationServiceProviderFactory2 and ReactDOMServerRenderToString18.",
  "Jira project PAY uses the board https://acme.atlassian.net/jira/software/projects/PAY/boards/12.",
  "Their favourite docs page is https://docs.example.com/guides/Getting-Started-With-Webhooks-2024",
];

describe("memory's secret filter", () => {
  it.each(SECRETS)("refuses %s", async (_kind, text) => {
    expect(await findSecret(text)).toBeTypeOf("string");
  });

  it.each(ORDINARY)("keeps %s", async (text) => {
    expect(await findSecret(text)).toBeUndefined();
  });
});
