import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  DOCUMENTDB_TOOLS_ENV,
  documentDbAbsence,
  documentDbTestUri,
  documentDbToolsDir,
  repositoryRoot,
  startDocumentDb,
} from "./documentdb.js";

/** A tools folder whose start.sh and stop.sh are the given scripts (bash bodies). */
function fakeTools(start: string, stop = "exit 0"): string {
  const dir = mkdtempSync(join(tmpdir(), "fake-documentdb-"));
  for (const [name, body] of [
    ["start.sh", start],
    ["stop.sh", stop],
  ] as const) {
    writeFileSync(join(dir, name), `#!/usr/bin/env bash\n${body}\n`);
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

describe("DocumentDB from ../shared/tools/documentdb", () => {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("looks beside the repository root whatever the cwd, unless overridden", () => {
    const root = repositoryRoot();
    expect(existsSync(join(root, "pnpm-workspace.yaml"))).toBe(true);
    expect(documentDbToolsDir({})).toBe(join(root, "..", "shared", "tools", "documentdb"));
    expect(documentDbToolsDir({ [DOCUMENTDB_TOOLS_ENV]: "/elsewhere/documentdb" })).toBe(
      "/elsewhere/documentdb",
    );
  });

  it("says why when the scripts are absent, and refuses to start", async () => {
    const missing = join(tmpdir(), "no-such-documentdb-tools");
    expect(documentDbAbsence(missing, {})).toBe(`no DocumentDB scripts at ${missing} beside the repository`);
    await expect(startDocumentDb({ toolsDir: missing })).rejects.toThrow(/no DocumentDB scripts at/);
  });

  it("returns the URI start.sh prints, and stop runs stop.sh --rm on the same state folder", async () => {
    const log = join(mkdtempSync(join(tmpdir(), "fake-documentdb-log-")), "calls");
    made.push(log.replace(/\/calls$/, ""));
    const tools = fakeTools(
      `echo "start $1" >>${log}; echo installing... >&2; echo "mongodb://tester:testpw@127.0.0.1:1/?directConnection=true"`,
      `echo "stop $*" >>${log}`,
    );
    made.push(tools);
    const documentDb = await startDocumentDb({ toolsDir: tools });
    expect(documentDb.uri).toBe("mongodb://tester:testpw@127.0.0.1:1/?directConnection=true");
    await documentDb.stop();
    const [start, stop] = readFileSync(log, "utf8").trim().split("\n");
    const stateDir = start?.replace(/^start /, "") ?? "";
    expect(stop).toBe(`stop ${stateDir} --rm`);
    expect(existsSync(stateDir)).toBe(false);
  });

  it("fails with start.sh's own output when it fails, and cleans up", async () => {
    const log = join(mkdtempSync(join(tmpdir(), "fake-documentdb-log-")), "calls");
    made.push(log.replace(/\/calls$/, ""));
    const tools = fakeTools(
      `echo "start $1" >>${log}; echo "apt-get: could not get lock" >&2; exit 100`,
      `echo "stop $*" >>${log}`,
    );
    made.push(tools);
    await expect(startDocumentDb({ toolsDir: tools })).rejects.toThrow(
      /start\.sh failed \(exit code 100\)\.\napt-get: could not get lock/,
    );
    const [start, stop] = readFileSync(log, "utf8").trim().split("\n");
    expect(stop).toBe(`stop ${start?.replace(/^start /, "")} --rm`);
  });

  it("gives up on a start.sh that hangs, within the time allowed", async () => {
    const tools = fakeTools("sleep 30");
    made.push(tools);
    await expect(startDocumentDb({ toolsDir: tools, startTimeoutMs: 500 })).rejects.toThrow(
      /did not print a URI within 500 ms/,
    );
  });
});

describe("documentDbTestUri", () => {
  it("sets up one connection at a time, keeping the URI's own options and database", () => {
    expect(documentDbTestUri("mongodb://u:p@127.0.0.1:5/?authMechanism=SCRAM-SHA-256")).toBe(
      "mongodb://u:p@127.0.0.1:5/?authMechanism=SCRAM-SHA-256&maxConnecting=1",
    );
    expect(documentDbTestUri("mongodb://127.0.0.1:5")).toBe("mongodb://127.0.0.1:5/?maxConnecting=1");
    expect(documentDbTestUri("mongodb://127.0.0.1:5/db")).toBe("mongodb://127.0.0.1:5/db?maxConnecting=1");
    expect(documentDbTestUri("mongodb://127.0.0.1:5/?maxConnecting=4")).toBe(
      "mongodb://127.0.0.1:5/?maxConnecting=4",
    );
  });
});
