import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import { ensureHelm, findRepoRoot } from "./helm.js";

/** One object of a rendered chart. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  [field: string]: unknown;
}

export interface HelmResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface ChartOptions {
  /** The chart folder. Default: `<repo root>/charts/switchboard`. */
  chart?: string;
  /** Values, as a values file would hold them (written to a temporary file and passed with -f). */
  values?: Record<string, unknown>;
  /** `--set` arguments, `path=value`, applied after `values`. */
  set?: string[];
  /** Release name. Default: `switchboard`. */
  release?: string;
  /** Release namespace. Default: `switchboard`. */
  namespace?: string;
}

/** `<repo root>/charts/switchboard` */
export function switchboardChart(): string {
  return join(findRepoRoot(), "charts", "switchboard");
}

/** Runs the helm that ensureHelm builds; never throws for a non-zero exit. */
export async function runHelm(args: string[]): Promise<HelmResult> {
  const helm = await ensureHelm();
  return new Promise((resolve, reject) => {
    const child = spawn(helm.path, args, {
      env: { ...process.env, ...helm.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** `helm template` of the chart with these values; the raw result, failures included. */
export function templateChart(options: ChartOptions = {}): Promise<HelmResult> {
  const { release = "switchboard", namespace = "switchboard" } = options;
  return withValues(options, (valueArgs) =>
    runHelm([
      "template",
      release,
      options.chart ?? switchboardChart(),
      "--namespace",
      namespace,
      ...valueArgs,
    ]),
  );
}

/** `helm lint --strict` of the chart with these values. */
export function lintChart(options: ChartOptions = {}): Promise<HelmResult> {
  const { namespace = "switchboard" } = options;
  return withValues(options, (valueArgs) =>
    runHelm([
      "lint",
      "--strict",
      options.chart ?? switchboardChart(),
      "--namespace",
      namespace,
      ...valueArgs,
    ]),
  );
}

/** The objects `helm template` renders; throws with helm's message when it fails. */
export async function renderChart(options: ChartOptions = {}): Promise<KubeObject[]> {
  const result = await templateChart(options);
  if (result.code !== 0)
    throw new Error(`helm template failed (exit ${result.code}): ${result.stderr.trim()}`);
  return parseManifests(result.stdout);
}

/** The objects of a multi-document YAML stream, empty documents left out. */
export function parseManifests(text: string): KubeObject[] {
  const objects: KubeObject[] = [];
  for (const document of parseAllDocuments(text)) {
    if (document.errors.length > 0)
      throw new Error(`Rendered YAML does not parse: ${document.errors[0]?.message}`);
    const object = document.toJS() as KubeObject | null;
    if (object) objects.push(object);
  }
  return objects;
}

async function withValues<T>(options: ChartOptions, use: (valueArgs: string[]) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "switchboard-helm-values-"));
  try {
    const args: string[] = [];
    if (options.values) {
      const file = join(dir, "values.json");
      // JSON is YAML: helm reads it as a values file.
      writeFileSync(file, JSON.stringify(options.values));
      args.push("--values", file);
    }
    for (const set of options.set ?? []) args.push("--set", set);
    return await use(args);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
