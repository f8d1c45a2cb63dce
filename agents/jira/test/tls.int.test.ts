import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type FakeJira, startFakeJira } from "@switchboard-testing/fake-jira";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// A Jira on premises behind a certificate no public CA signed: reached when its CA is in
// NODE_EXTRA_CA_CERTS, refused (with the fix named) without it, and reached with CAIPE's
// ATLASSIAN_VERIFY_SSL=false.

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
let dir: string;
let jira: FakeJira;
let front: Server;
let url: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "switchboard-jira-tls-"));
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost"],
      ...["-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
      ...["-keyout", join(dir, "key.pem"), "-out", join(dir, "ca.pem")],
    ],
    { stdio: "ignore" },
  );
  jira = await startFakeJira();
  const upstream = new URL(jira.url);
  // TLS in front of the fake Jira, as a reverse proxy terminates it in front of a real one.
  front = createServer(
    { key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "ca.pem")) },
    (req, res) => {
      const proxied = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          path: req.url,
          method: req.method,
          headers: req.headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(proxied);
    },
  );
  await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
  url = `https://localhost:${(front.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => front?.close(resolve));
  await jira?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the probe with the Jira settings (under CAIPE's names) and `extra` env; its JSON answer. */
async function probe(extra: NodeJS.ProcessEnv): Promise<{ projects?: string[]; error?: string }> {
  const { NODE_EXTRA_CA_CERTS: _inherited, ...env } = process.env;
  const child = spawn(process.execPath, ["test/fixtures/tls-probe.mjs"], {
    cwd: packageDir,
    env: {
      ...env,
      JIRA_URL: url,
      JIRA_EMAIL: jira.email,
      JIRA_API_TOKEN: jira.token,
      LOG_LEVEL: "silent",
      ...extra,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.on("data", (chunk) => {
    out += chunk;
  });
  await new Promise((resolve) => child.on("close", resolve));
  return JSON.parse(out.trim().split("\n").at(-1) ?? "{}");
}

describe("a Jira with a private CA", () => {
  it("is reached when NODE_EXTRA_CA_CERTS holds the CA", async () => {
    const answer = await probe({ NODE_EXTRA_CA_CERTS: join(dir, "ca.pem") });
    expect(answer.error).toBeUndefined();
    expect(answer.projects?.length).toBeGreaterThan(0);
  });

  it("is refused without it, with a message naming the certificate problem and the fix", async () => {
    const answer = await probe({});
    expect(answer.error).toMatch(
      /Cannot reach Jira at https:\/\/localhost:\d+ \(.*(SELF_SIGNED|self.signed)/i,
    );
    expect(answer.error).toContain("NODE_EXTRA_CA_CERTS");
    expect(answer.error).not.toContain(jira.token);
  });

  it("is reached with ATLASSIAN_VERIFY_SSL=false, for this vendor only", async () => {
    const answer = await probe({ ATLASSIAN_VERIFY_SSL: "false" });
    expect(answer.error).toBeUndefined();
    expect(answer.projects?.length).toBeGreaterThan(0);
  });
});
