import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FakeGithub, startFakeGithub } from "@switchboard-testing/fake-github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { githubConnection } from "./client.js";
import { githubTools } from "./tools.js";

// CAIPE's recommended GitHub authentication: a GitHub App. The real Octokit signs the app's JWT with
// its private key, trades it at the fake GitHub for an installation token, and calls with that.

const APP_ID = 424242;
const INSTALLATION = 777;
const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();

let github: FakeGithub;
let dir: string;
beforeAll(async () => {
  github = await startFakeGithub({
    app: {
      id: APP_ID,
      publicKey: publicKey.export({ type: "spki", format: "pem" }).toString(),
      installationId: INSTALLATION,
    },
  });
  dir = mkdtempSync(join(tmpdir(), "github-app-"));
});
afterAll(async () => {
  await github?.close();
  rmSync(dir, { recursive: true, force: true });
});

const appEnv = (key: NodeJS.ProcessEnv) => ({
  GITHUB_API_URL: github.url,
  GITHUB_APP_ID: String(APP_ID),
  GITHUB_APP_INSTALLATION_ID: String(INSTALLATION),
  // A personal access token beside it is not used: CAIPE prefers the App.
  GITHUB_PERSONAL_ACCESS_TOKEN: "ghp_not_this_one",
  ...key,
});

async function getRepoAs(env: NodeJS.ProcessEnv, repo: string): Promise<string> {
  const tool = githubTools(githubConnection(env), env.GITHUB_ORG).find((one) => one.tool.name === "get_repo");
  return String(await tool?.tool.invoke({ repo }));
}

describe("a GitHub App (GITHUB_APP_ID, its private key and installation)", () => {
  it("acts through an installation token the app's JWT bought, the key given as PEM on one line", async () => {
    const before = github.requests.length;
    const answer = await getRepoAs(
      appEnv({ GITHUB_APP_PRIVATE_KEY: pem.replace(/\n/g, "\\n"), GITHUB_ORG: "acme" }),
      "platform-api",
    );
    expect(answer).toContain("acme/platform-api");
    const requests = github.requests.slice(before);
    expect(requests[0]).toMatchObject({
      method: "POST",
      path: `/api/v3/app/installations/${INSTALLATION}/access_tokens`,
      auth: "bearer",
      status: 201,
    });
    const calls = requests.slice(1);
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) expect(call.token).toMatch(/^ghs_/);
  });

  it("takes the key base64-encoded, or from GITHUB_APP_PRIVATE_KEY_PATH", async () => {
    const base64 = Buffer.from(pem).toString("base64");
    expect(await getRepoAs(appEnv({ GITHUB_APP_PRIVATE_KEY: base64 }), "acme/infra")).toContain("acme/infra");
    const path = join(dir, "app.pem");
    writeFileSync(path, pem);
    expect(await getRepoAs(appEnv({ GITHUB_APP_PRIVATE_KEY_PATH: path }), "acme/infra")).toContain(
      "acme/infra",
    );
  });

  it("with another app's key, fails with GitHub's refusal naming the App settings and no key", async () => {
    const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
    const otherPem = other.export({ type: "pkcs8", format: "pem" }).toString();
    const answer = await getRepoAs(appEnv({ GITHUB_APP_PRIVATE_KEY: otherPem }), "acme/infra").catch(
      (error: Error) => error.message,
    );
    expect(answer).toMatch(
      /GitHub refused the credentials \(HTTP 401.*GITHUB_APP_ID, GITHUB_APP_PRIVATE_KEY/,
    );
    expect(answer).not.toContain("PRIVATE KEY");
  });

  it("names what is missing or malformed", async () => {
    await expect(githubConnection(appEnv({})).call({}, async () => 0)).rejects.toThrow(
      /GitHub App is not configured: set GITHUB_APP_PRIVATE_KEY/,
    );
    await expect(
      githubConnection(appEnv({ GITHUB_APP_PRIVATE_KEY: "not a key" })).call({}, async () => 0),
    ).rejects.toThrow(/GITHUB_APP_PRIVATE_KEY is neither a PEM private key nor its base64/);
  });
});
