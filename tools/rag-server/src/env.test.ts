import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import { describe, expect, it } from "vitest";
import { readRagServerSettings } from "./env.js";

const embeddings = { EMBEDDINGS_PROVIDER: "openai", OPENAI_API_KEY: "sk-test" };

describe("the RAG server's settings", () => {
  it("take CAIPE's port and defaults: no sources, tokens optional, 10 MiB uploads", () => {
    const settings = readRagServerSettings(embeddings);
    expect(settings).toMatchObject({
      port: 9446,
      sources: [],
      requireToken: false,
      maxUploadBytes: 10 * 1024 * 1024,
      syncLeaseMs: 60_000,
      auth: { mode: "none" },
      knowledge: { engine: { kind: "pglite", dataDir: ".data/knowledge" } },
    });
  });

  it("read the sources file, and name the file, the entry and the fix for a bad one", () => {
    const dir = scratchDir("rag-settings");
    const good = join(dir, "good.yaml");
    writeFileSync(good, "sources:\n  - id: files\n    type: upload\n    readers: everyone\n");
    expect(readRagServerSettings({ ...embeddings, KNOWLEDGE_SOURCES_FILE: good }).sources).toEqual([
      expect.objectContaining({ id: "files", type: "upload", readers: "everyone" }),
    ]);
    // A Confluence source may not widen its readers past Confluence's own permissions.
    const hostile = join(dir, "hostile.yaml");
    writeFileSync(
      hostile,
      "sources:\n  - id: wiki\n    type: confluence\n    url: https://wiki.example.com/wiki\n    spaces: [OPS]\n    readers: everyone\n",
    );
    expect(() => readRagServerSettings({ ...embeddings, KNOWLEDGE_SOURCES_FILE: hostile })).toThrow(
      /KNOWLEDGE_SOURCES_FILE=.*hostile\.yaml.*sources\[0\] \(wiki\) readers/,
    );
    expect(() =>
      readRagServerSettings({ ...embeddings, KNOWLEDGE_SOURCES_FILE: join(dir, "missing.yaml") }),
    ).toThrow(/KNOWLEDGE_SOURCES_FILE=.*missing\.yaml cannot be read \(ENOENT\): point it at a YAML file/);
  });

  it("refuse what cannot work, naming the setting: no embeddings, MCP_AUTH_ENABLED without sign-in", () => {
    expect(() => readRagServerSettings({})).toThrow(/EMBEDDINGS_PROVIDER/);
    expect(() => readRagServerSettings({ ...embeddings, MCP_AUTH_ENABLED: "true" })).toThrow(
      /MCP_AUTH_ENABLED=true needs AUTH_MODE=jwt/,
    );
    expect(() => readRagServerSettings({ ...embeddings, MAX_LOCAL_FILE_UPLOAD_BYTES: "lots" })).toThrow(
      /MAX_LOCAL_FILE_UPLOAD_BYTES/,
    );
  });
});
