import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { aptGet } from "./apt.js";

/** Overrides where the shared DocumentDB tools (whose bundle carries a pgvector build) are looked for. */
const DOCUMENTDB_TOOLS_ENV = "SWITCHBOARD_DOCUMENTDB_TOOLS";

/** `../shared/tools/documentdb` beside the repository (the nearest folder holding pnpm-workspace.yaml). */
function documentDbToolsDir(): string | undefined {
  const override = process.env[DOCUMENTDB_TOOLS_ENV];
  if (override) return resolve(override);
  for (let dir = dirname(fileURLToPath(import.meta.url)); dirname(dir) !== dir; dir = dirname(dir)) {
    if (existsSync(join(dir, "pnpm-workspace.yaml")))
      return resolve(dir, "..", "shared", "tools", "documentdb");
  }
  return undefined;
}

/** The shared DocumentDB bundle for PostgreSQL `version`, which carries a pgvector build, when it is there. */
export function pgvectorBundle(version: string): string | undefined {
  const tools = documentDbToolsDir();
  const bundle = tools && join(tools, `documentdb-pg${version}-bookworm-amd64.tar.gz`);
  return bundle && existsSync(bundle) ? bundle : undefined;
}

/**
 * pgvector for PostgreSQL `version` (as installed under /usr/lib/postgresql): Debian's `postgresql-<N>-pgvector` (Debian 13
 * and later ship it); Debian 12 has none, so there the pgvector build inside the shared DocumentDB
 * bundle (`../shared/tools/documentdb`, built for PostgreSQL 15 on Debian 12) is unpacked instead.
 */
export function ensurePgvector(version: string): void {
  const control = `/usr/share/postgresql/${version}/extension/vector.control`;
  if (existsSync(control)) return;
  const debianPackage = `postgresql-${version}-pgvector`;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `pgvector is missing: install it with "sudo apt-get install -y ${debianPackage}" (Debian).`,
    );
  }
  aptGet(["update", "-qq"]);
  if (spawnSync("apt-cache", ["show", debianPackage], { stdio: "ignore" }).status === 0) {
    const { ok, why } = aptGet(["install", "-y", "-qq", "--no-install-recommends", debianPackage]);
    if (ok && existsSync(control)) return;
    throw new Error(`apt-get install ${debianPackage} failed (${why}).`);
  }
  const bundle = pgvectorBundle(version);
  if (!bundle) {
    throw new Error(
      `pgvector is missing for PostgreSQL ${version}: this machine's Debian has no ${debianPackage} (Debian 12 ` +
        `ships none) and no documentdb-pg${version}-bookworm-amd64.tar.gz (whose pgvector build is used instead) ` +
        `is in ${documentDbToolsDir() ?? "../shared/tools/documentdb"} (set ${DOCUMENTDB_TOOLS_ENV} to the folder holding it).`,
    );
  }
  unpackPgvector(bundle, version, "/");
}

/**
 * The pgvector files of PostgreSQL `version` from the DocumentDB bundle, into `root`: unpacked in a
 * folder beside the targets, then renamed into place with vector.control last, so a test file starting
 * PostgreSQL at the same time never sees a half-written library.
 */
export function unpackPgvector(bundle: string, version: string, root: string): void {
  const library = `usr/lib/postgresql/${version}/lib/vector.so`;
  const extension = `usr/share/postgresql/${version}/extension`;
  const staging = mkdtempSync(join(root, "usr/lib/postgresql/.pgvector-"));
  try {
    const untar = spawnSync(
      "tar",
      ["-C", staging, "-xzf", bundle, "--wildcards", library, `${extension}/vector*`],
      {
        encoding: "utf8",
      },
    );
    if (untar.status !== 0) throw new Error(`pgvector could not be unpacked from ${bundle}: ${untar.stderr}`);
    const scripts = readdirSync(join(staging, extension)).sort(
      (a, b) => Number(a.endsWith(".control")) - Number(b.endsWith(".control")),
    );
    for (const path of [library, ...scripts.map((name) => join(extension, name))]) {
      renameSync(join(staging, path), join(root, path));
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
