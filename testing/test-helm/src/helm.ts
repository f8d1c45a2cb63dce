import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runLogged, withSetupLock } from "@switchboard/vitest-config/run";

/** The helm release the tests run, built from its Go module (helm.sh/helm/v3). */
export const HELM_VERSION = "v3.22.0";
/**
 * The Kubernetes version helm assumes without a cluster (`.Capabilities.KubeVersion`, the chart's
 * `kubeVersion` check, lint's deprecation rules). helm's release builds set it from the client-go
 * version in its go.mod (v0.37 → 1.37); `go install` alone would leave helm's fallback, 1.20.
 */
export const HELM_KUBE_VERSION = "1.37";
const HELM_MODULE = "helm.sh/helm/v3";
const stampName = ".switchboard-build";

/** A helm binary this package built. */
export interface Helm {
  /** The executable. */
  path: string;
  version: string;
  /** `<repo root>/.tools/helm-<version>` */
  dir: string;
  /** HELM_CACHE_HOME, HELM_CONFIG_HOME and HELM_DATA_HOME inside `dir`, so no user's helm setup leaks in. */
  env: NodeJS.ProcessEnv;
}

export interface EnsureHelmOptions {
  /** The go command. Default: `SWITCHBOARD_GO`, else `go` on PATH, else /usr/local/go/bin/go. */
  go?: string;
  /** Where helm goes. Default: `<repo root>/.tools/helm-<version>` (git- and docker-ignored). */
  dir?: string;
  /** Progress lines (go's download and build output) during a build. */
  onLog?: (line: string) => void;
}

const packageRoot = dirname(dirname(fileURLToPath(import.meta.url)));

/** The workspace root: the nearest folder above this package with pnpm-workspace.yaml. */
export function findRepoRoot(from: string = packageRoot): string {
  let dir = from;
  while (!existsSync(join(dir, "pnpm-workspace.yaml"))) {
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error(`No pnpm-workspace.yaml above ${from}: cannot place helm in .tools/.`);
    dir = parent;
  }
  return dir;
}

/** What `go install` is given: the same link flags as helm's own Makefile for a release build. */
export function helmInstallArgs(): string[] {
  const [major, minor] = HELM_KUBE_VERSION.split(".");
  const ldflags = [
    "-s",
    "-w",
    `-X ${HELM_MODULE}/internal/version.version=${HELM_VERSION}`,
    `-X ${HELM_MODULE}/internal/version.gitTreeState=clean`,
    `-X ${HELM_MODULE}/pkg/chartutil.k8sVersionMajor=${major}`,
    `-X ${HELM_MODULE}/pkg/chartutil.k8sVersionMinor=${minor}`,
    `-X ${HELM_MODULE}/pkg/lint/rules.k8sVersionMajor=${major}`,
    `-X ${HELM_MODULE}/pkg/lint/rules.k8sVersionMinor=${minor}`,
  ].join(" ");
  return ["install", "-trimpath", `-ldflags=${ldflags}`, `${HELM_MODULE}/cmd/helm@${HELM_VERSION}`];
}

const pending = new Map<string, Promise<Helm>>();

/**
 * Builds helm into `<repo root>/.tools/helm-<version>/` with `go install` from the Go module proxy,
 * once: a later call only reads a stamp. Parallel test processes take turns on a lock folder beside
 * it (`helm-<version>.lock`). A cold build (empty module and build caches) takes about 2 minutes on 2
 * cores; the Go caches (GOMODCACHE, GOCACHE) are Go's own, under the user's home by default.
 */
export function ensureHelm(options: EnsureHelmOptions = {}): Promise<Helm> {
  const dir = options.dir ?? join(findRepoRoot(), ".tools", `helm-${HELM_VERSION}`);
  let result = pending.get(dir);
  if (!result) {
    result = prepare(dir, options);
    pending.set(dir, result);
    result.catch(() => pending.delete(dir));
  }
  return result;
}

async function prepare(dir: string, options: EnsureHelmOptions): Promise<Helm> {
  const home = join(dir, "home");
  const helm: Helm = {
    path: join(dir, "helm"),
    version: HELM_VERSION,
    dir,
    env: {
      HELM_CACHE_HOME: join(home, "cache"),
      HELM_CONFIG_HOME: join(home, "config"),
      HELM_DATA_HOME: join(home, "data"),
    },
  };
  const wanted = `${helmInstallArgs().join("\n")}\n`;
  if (isCurrent(helm, wanted)) return helm;

  return withSetupLock(dir, 15, async () => {
    // Another process may have built it while this one waited for the lock.
    if (isCurrent(helm, wanted)) return helm;
    const go = options.go ?? process.env.SWITCHBOARD_GO ?? findGo();
    const log = options.onLog ?? (() => {});
    rmSync(join(dir, stampName), { force: true });
    mkdirSync(dir, { recursive: true });
    log(`building helm ${HELM_VERSION} into ${dir} with ${go} (go install from the Go module proxy)`);
    // CGO off: a static binary, and no C compiler needed. GOBIN: the binary lands in `dir` as `helm`.
    await runLogged(go, helmInstallArgs(), {
      env: { ...process.env, GOBIN: dir, CGO_ENABLED: "0" },
      log,
      purpose: "build helm",
      missingHint:
        "Install Go 1.26 or newer (https://go.dev/dl; the Go module proxy must be reachable), or point SWITCHBOARD_GO at the go command.",
      failedHint: "Check that the Go module proxy is reachable (`go env GOPROXY`).",
    });
    if (!existsSync(helm.path)) throw new Error(`\`${go} install\` succeeded but left no ${helm.path}.`);
    writeFileSync(join(dir, stampName), wanted);
    return helm;
  });
}

function isCurrent(helm: Helm, wanted: string): boolean {
  if (!existsSync(helm.path)) return false;
  try {
    return readFileSync(join(helm.dir, stampName), "utf8") === wanted;
  } catch {
    return false;
  }
}

/** `go` on PATH, else the official installer's place. */
function findGo(): string {
  const onPath = (process.env.PATH ?? "")
    .split(delimiter)
    .some((entry) => entry && existsSync(join(entry, "go")));
  if (!onPath && existsSync("/usr/local/go/bin/go")) return "/usr/local/go/bin/go";
  return "go";
}
