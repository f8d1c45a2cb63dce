import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it, vi } from "vitest";
import { runHelm } from "./chart.js";
import { ensureHelm, findRepoRoot, HELM_KUBE_VERSION, HELM_VERSION, helmInstallArgs } from "./helm.js";

const scratch = mkdtempSync(join(tmpdir(), "switchboard-test-helm-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A stand-in for `go` that records its arguments and "installs" a helm script into GOBIN. */
function fakeGo(name: string, { exitCode = 0 } = {}): { go: string; calls: () => string[] } {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  const calls = join(dir, "calls");
  const go = join(dir, "go");
  writeFileSync(
    go,
    [
      "#!/bin/sh",
      `echo "$*" >> '${calls}'`,
      `if [ ${exitCode} -ne 0 ]; then echo "go: module lookup failed" >&2; exit ${exitCode}; fi`,
      `printf '#!/bin/sh\\necho fake helm\\n' > "$GOBIN/helm" && chmod +x "$GOBIN/helm"`,
    ].join("\n"),
  );
  chmodSync(go, 0o755);
  return { go, calls: () => (existsSync(calls) ? readFileSync(calls, "utf8").trim().split("\n") : []) };
}

describe("ensureHelm", () => {
  it(`builds helm ${HELM_VERSION} into <repo root>/.tools, assuming Kubernetes ${HELM_KUBE_VERSION} as its releases do`, async () => {
    const logs: string[] = [];
    const helm = await ensureHelm({ onLog: (line) => logs.push(line) });
    expect(helm.path).toBe(join(findRepoRoot(), ".tools", `helm-${HELM_VERSION}`, "helm"));
    // The global setup built it: this call only read the stamp.
    expect(logs).toEqual([]);
    expect((await runHelm(["version", "--template", "{{ .Version }}"])).stdout).toBe(HELM_VERSION);

    const chart = join(scratch, "capabilities");
    mkdirSync(join(chart, "templates"), { recursive: true });
    writeFileSync(join(chart, "Chart.yaml"), "apiVersion: v2\nname: capabilities\nversion: 0.1.0\n");
    writeFileSync(
      join(chart, "templates", "kube.yaml"),
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kube\ndata:\n  version: {{ .Capabilities.KubeVersion.Version | quote }}\n",
    );
    const rendered = await runHelm(["template", "x", chart]);
    expect(rendered.stderr).toBe("");
    expect(rendered.stdout).toContain(`version: "v${HELM_KUBE_VERSION}.0"`);
  });

  it("runs go install once, then only reads its stamp; a changed build is built again", async () => {
    const { go, calls } = fakeGo("once");
    const dir = join(scratch, "once", "helm");
    const [first, second] = await Promise.all([ensureHelm({ go, dir }), ensureHelm({ go, dir })]);
    expect(first).toBe(second);
    expect(calls()).toEqual([helmInstallArgs().join(" ")]);
    expect(execFileSync(first.path).toString()).toBe("fake helm\n");

    // A later test run (a fresh module: one process remembers its result) finds the stamp.
    vi.resetModules();
    const later = await import("./helm.js");
    await later.ensureHelm({ go, dir });
    expect(calls()).toHaveLength(1);
    writeFileSync(join(dir, ".switchboard-build"), "an older build\n");
    vi.resetModules();
    await (await import("./helm.js")).ensureHelm({ go, dir });
    expect(calls()).toHaveLength(2);
  });

  it("uses the helm another process built while this one waited for the lock", async () => {
    const { go, calls } = fakeGo("waiting");
    const dir = join(scratch, "waiting", "helm");
    const lock = `${dir}.lock`;
    mkdirSync(lock, { recursive: true });
    writeFileSync(join(lock, "pid"), String(process.pid));
    const waiting = ensureHelm({ go, dir });
    await sleep(500);
    // The "other process" finishes: the binary and its stamp, then the lock goes.
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "helm"), "#!/bin/sh\n");
    writeFileSync(join(dir, ".switchboard-build"), `${helmInstallArgs().join("\n")}\n`);
    rmSync(lock, { recursive: true });
    expect((await waiting).path).toBe(join(dir, "helm"));
    expect(calls()).toEqual([]);
  });

  it("says what to install when go is missing, and shows go's output when the build fails", async () => {
    await expect(
      ensureHelm({ go: join(scratch, "no-such-go"), dir: join(scratch, "missing") }),
    ).rejects.toThrow(/Cannot run `.*no-such-go` to build helm.*Install Go 1\.26 or newer.*SWITCHBOARD_GO/s);
    const { go } = fakeGo("failing", { exitCode: 1 });
    const dir = join(scratch, "failing", "helm");
    await expect(ensureHelm({ go, dir })).rejects.toThrow(
      /failed \(exit 1\).*Go module proxy.*module lookup failed/s,
    );
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });
});
