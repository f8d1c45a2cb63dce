import { join } from "node:path";
import { freePort } from "@switchboard/vitest-config/ports";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import { type ScriptedLlm, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openConfiguredKnowledgeStore, readKnowledgeSettings } from "../src/index.js";

// The knowledge base as `npm start` opens it from the environment: PGlite in a folder when no
// PostgreSQL is named (kept across restarts), PostgreSQL when KNOWLEDGE_POSTGRES_DSN names one.

describe("the knowledge base from its settings", () => {
  let llm: ScriptedLlm;
  const env = () => ({ EMBEDDINGS_PROVIDER: "openai", ...llm.env });

  beforeAll(async () => {
    llm = await startScriptedLlm({ script: () => say("unused") });
  });
  afterAll(async () => {
    await llm?.close();
  });

  it("needs an embeddings provider, and names the settings that give one", () => {
    expect(() => readKnowledgeSettings({})).toThrow(
      "The knowledge base needs embeddings: set EMBEDDINGS_PROVIDER (openai, azure-openai, aws-bedrock or ollama",
    );
    expect(readKnowledgeSettings({ EMBEDDINGS_PROVIDER: "openai" })).toEqual({
      engine: { kind: "pglite", dataDir: ".data/knowledge" },
      embeddings: { provider: "openai", model: "text-embedding-3-small" },
    });
    expect(
      readKnowledgeSettings({
        EMBEDDINGS_PROVIDER: "openai",
        KNOWLEDGE_POSTGRES_DSN: "postgresql://kb@db/kb",
      }).engine,
    ).toEqual({ kind: "postgres", dsn: "postgresql://kb@db/kb" });
  });

  it("keeps the embedded knowledge base in its folder across a restart, with nothing installed", async () => {
    const dataDir = join(scratchDir("knowledge-pglite"), "kb");
    const settings = readKnowledgeSettings({ ...env(), KNOWLEDGE_PGLITE_DIR: dataDir });
    const first = await openConfiguredKnowledgeStore(settings, env());
    expect(first.engine.kind).toBe("pglite");
    await first.upsertDocuments("adr", [
      {
        id: "adr-7",
        uri: "https://git.example.com/adr/7.md",
        title: "ADR 7: one queue per tenant",
        text: "We give every tenant its own queue so a noisy tenant cannot starve the others.",
        readers: "everyone",
      },
    ]);
    await first.close();

    const second = await openConfiguredKnowledgeStore(settings, env());
    const principal = { subject: "erin", groups: [], authenticated: true };
    const [hit] = await second.search({ text: "noisy tenant queue", principal });
    expect(hit).toMatchObject({ documentId: "adr-7", uri: "https://git.example.com/adr/7.md" });
    expect(await second.syncStatus("adr")).toMatchObject({ documents: 1, chunks: 1 });
    await second.close();
  });

  it("names KNOWLEDGE_POSTGRES_DSN, without its password, when nothing answers there", async () => {
    const port = await freePort();
    const dsn = `postgresql://kb:hunter2-secret@127.0.0.1:${port}/kb`;
    const settings = readKnowledgeSettings({ ...env(), KNOWLEDGE_POSTGRES_DSN: dsn });
    const opening = openConfiguredKnowledgeStore(settings, env());
    await expect(opening).rejects.toThrow(
      `Nothing answered at the knowledge base's PostgreSQL (KNOWLEDGE_POSTGRES_DSN=postgresql://kb:****@127.0.0.1:${port}/kb) (ECONNREFUSED): start it, or correct the DSN.`,
    );
    await expect(opening).rejects.not.toThrow("hunter2");
  });
});
