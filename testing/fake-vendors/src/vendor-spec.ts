import { execFile } from "node:child_process";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import type { Document } from "openapi-backend";
import pacote from "pacote";
import { convertObj } from "swagger2openapi";

/**
 * A vendor's own published OpenAPI description, as a registry package ships it. The package is
 * pinned and checked: npm packages by their integrity hash, Go modules by Go's checksum database.
 */
export type SpecSource =
  | {
      /** An npm package (`name@version`) whose file exports the description (`exportName`). */
      npm: string;
      integrity: string;
      file: string;
      exportName: string;
    }
  | {
      /** A Go module (`path@version`) that carries the description as a JSON file. */
      goModule: string;
      file: string;
    };

/** Argo CD's API server description (Swagger 2.0), shipped in its Go module. */
export const ARGO_CD_SPEC: SpecSource = {
  goModule: "github.com/argoproj/argo-cd/v2@v2.14.21",
  file: "assets/swagger.json",
};

/** The Backstage catalog backend's description (OpenAPI 3.1), generated into its npm package. */
export const BACKSTAGE_CATALOG_SPEC: SpecSource = {
  npm: "@backstage/plugin-catalog-backend@4.0.0",
  integrity:
    "sha512-G90XYW+/YDdxsShzz4FYQuvQhsQ3P+VENyzqB96nk0d1mcf1zzGwqyGkSxIU+xOo+GWljmmIN8PDfoFFWONCLA==",
  file: "dist/schema/openapi/generated/router.cjs.js",
  exportName: "spec",
};

// Fetched once per machine, beside the package's dependencies (both src/ and dist/ sit one level down).
const CACHE_DIR = join(import.meta.dirname, "..", "node_modules", ".cache", "vendor-specs");
const loaded = new Map<SpecSource, Promise<Document>>();

/** The description as an OpenAPI 3 document (Swagger 2.0 converted), fetched on first use. */
export function loadVendorSpec(source: SpecSource): Promise<Document> {
  let document = loaded.get(source);
  if (!document) {
    document = readCachedSpec(source);
    loaded.set(source, document);
    document.catch(() => loaded.delete(source));
  }
  return document;
}

async function readCachedSpec(source: SpecSource): Promise<Document> {
  const name = ("npm" in source ? source.npm : source.goModule).replace(/[^\w.@-]+/g, "_");
  const cached = join(CACHE_DIR, `${name}.openapi.json`);
  try {
    return JSON.parse(await readFile(cached, "utf8")) as Document;
  } catch {
    const raw = "npm" in source ? await fromNpm(source) : await fromGoModule(source);
    const document = await toOpenApi3(raw);
    // Written whole, then renamed: test files fetching the same spec at once never see half a file.
    await mkdir(CACHE_DIR, { recursive: true });
    const partial = `${cached}.${process.pid}.tmp`;
    await writeFile(partial, JSON.stringify(document));
    await rename(partial, cached);
    return document;
  }
}

async function fromNpm(source: Extract<SpecSource, { npm: string }>): Promise<unknown> {
  const dir = join(CACHE_DIR, `npm-${process.pid}-${Date.now()}`);
  try {
    await pacote.extract(source.npm, dir, { integrity: source.integrity, ...(await npmSettings()) });
    const code = await readFile(join(dir, source.file), "utf8");
    // The file is a generated CommonJS module: run it alone, with its imports stubbed, for the one export.
    const module = { exports: {} as Record<string, unknown> };
    runInNewContext(code, { module, exports: module.exports, require: () => ({}) });
    const spec = module.exports[source.exportName];
    if (!spec) throw new Error(`${source.npm}: ${source.file} has no export "${source.exportName}"`);
    return spec;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The registry and CA certificates npm is set up with (an npmrc's `registry`, `cafile`), as pnpm uses them. */
async function npmSettings(): Promise<{ registry?: string; ca?: string[] }> {
  const get = (key: string) =>
    new Promise<string | undefined>((resolve) =>
      execFile("npm", ["config", "get", key], (error, stdout) => {
        const value = stdout?.trim();
        resolve(error || !value || value === "undefined" || value === "null" ? undefined : value);
      }),
    );
  const [registry, cafile] = await Promise.all([get("registry"), get("cafile")]);
  const bundle = cafile ? await readFile(cafile, "utf8").catch(() => undefined) : undefined;
  const ca = bundle?.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? undefined;
  return { ...(registry ? { registry } : {}), ...(ca ? { ca } : {}) };
}

async function fromGoModule(source: Extract<SpecSource, { goModule: string }>): Promise<unknown> {
  const downloaded = await new Promise<string>((resolve, reject) => {
    execFile(
      "go",
      ["mod", "download", "-json", source.goModule],
      { maxBuffer: 1 << 20 },
      (error, stdout, stderr) => {
        if ((error as NodeJS.ErrnoException | null)?.code === "ENOENT") {
          reject(
            new Error(
              `Fetching ${source.goModule} (the vendor's OpenAPI description) needs Go on PATH: install it from https://go.dev/dl and run the tests again.`,
            ),
          );
        } else if (error) {
          reject(
            new Error(`go mod download ${source.goModule} failed: ${stderr || stdout || error.message}`),
          );
        } else resolve(stdout);
      },
    );
  });
  const { Dir, Error: failure } = JSON.parse(downloaded) as { Dir?: string; Error?: string };
  if (!Dir) throw new Error(`go mod download ${source.goModule} failed: ${failure ?? downloaded}`);
  return JSON.parse(await readFile(join(Dir, source.file), "utf8"));
}

async function toOpenApi3(spec: unknown): Promise<Document> {
  if ((spec as { swagger?: string }).swagger !== "2.0") return spec as Document;
  const { openapi } = await convertObj(spec as Parameters<typeof convertObj>[0], {
    patch: true,
    warnOnly: true,
  });
  return openapi as Document;
}
