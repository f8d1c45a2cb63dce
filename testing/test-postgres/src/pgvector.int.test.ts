import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { pgvectorBundle, unpackPgvector } from "./pgvector.js";

// Debian 12 ships no postgresql-15-pgvector: there test-postgres takes pgvector from the shared
// DocumentDB bundle. Unpacked here into a folder of its own, not the machine's /usr.
const bundle = pgvectorBundle("15");

describe.skipIf(!bundle)("pgvector from the shared DocumentDB bundle", () => {
  const root = mkdtempSync(join(tmpdir(), "pgvector-root-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("unpacks the library and the extension's files into place, and leaves no staging folder", () => {
    mkdirSync(join(root, "usr/lib/postgresql/15/lib"), { recursive: true });
    mkdirSync(join(root, "usr/share/postgresql/15/extension"), { recursive: true });
    unpackPgvector(bundle as string, "15", root);
    expect(existsSync(join(root, "usr/lib/postgresql/15/lib/vector.so"))).toBe(true);
    const extension = readdirSync(join(root, "usr/share/postgresql/15/extension"));
    expect(extension).toContain("vector.control");
    expect(extension.filter((name) => /^vector--[\d.]+\.sql$/.test(name)).length).toBeGreaterThan(0);
    expect(extension.every((name) => name.startsWith("vector"))).toBe(true);
    expect(readdirSync(join(root, "usr/lib/postgresql")).filter((name) => name.startsWith("."))).toEqual([]);
  });
});
