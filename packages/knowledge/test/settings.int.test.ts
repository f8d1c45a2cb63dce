import { join } from "node:path";
import { freePort } from "@switchboard/vitest-config/ports";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import { type ScriptedLlm, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { startPostgres, type TestPostgres } from "@switchboard-testing/test-postgres";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openConfiguredKnowledgeStore, readKnowledgeSettings } from "../src/index.js";

// The knowledge base as `npm start` opens it from the environment: PGlite in a folder when no
// PostgreSQL is named (kept across restarts), PostgreSQL when KNOWLEDGE_POSTGRES_DSN names one.

describe("the knowledge base from its settings", () => {
  let llm: ScriptedLlm;
  let postgres: TestPostgres;
  const env = () => ({ EMBEDDINGS_PROVIDER: "openai", ...llm.env });

  beforeAll(async () => {
    llm = await startScriptedLlm({ script: () => say("unused") });
    postgres = await startPostgres({ pgvector: true });
  });
  afterAll(async () => {
    await postgres?.stop();
    await llm?.close();
  });

  /** A database of its own on the test PostgreSQL: each embeddings model builds its own knowledge base. */
  const database = async (name: string) => {
    const admin = new pg.Client({ connectionString: postgres.dsn });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    return postgres.dsn.replace(/\/postgres$/, `/${name}`);
  };

  // Every provider memory supports, each through its own LangChain client and protocol (test-llm serves
  // OpenAI's /v1/embeddings, Bedrock's InvokeModel and Ollama's /api/embed).
  it.each([
    { provider: "openai", path: "/v1/embeddings", env: (): Record<string, string> => llm.env },
    {
      provider: "aws-bedrock",
      path: "/model/amazon.titan-embed-text-v2:0/invoke",
      env: (): Record<string, string> => {
        const aws = llm.envFor("aws-bedrock");
        return {
          AWS_ACCESS_KEY_ID: aws.AWS_ACCESS_KEY_ID as string,
          AWS_SECRET_ACCESS_KEY: aws.AWS_SECRET_ACCESS_KEY as string,
          AWS_ENDPOINT_URL_BEDROCK_RUNTIME: aws.AWS_ENDPOINT_URL_BEDROCK_RUNTIME as string,
        };
      },
    },
    {
      provider: "ollama",
      path: "/api/embed",
      env: (): Record<string, string> => ({
        EMBEDDINGS_MODEL: "nomic-embed-text",
        OLLAMA_BASE_URL: llm.envFor("ollama").OLLAMA_BASE_URL as string,
      }),
    },
  ])(
    "embeds and searches with EMBEDDINGS_PROVIDER=$provider on KNOWLEDGE_POSTGRES_DSN",
    async ({ provider, path, env: providerEnv }) => {
      const variables = {
        EMBEDDINGS_PROVIDER: provider,
        KNOWLEDGE_POSTGRES_DSN: await database(`kb_${provider.replace("-", "_")}`),
        ...providerEnv(),
      };
      const calls = llm.embeddingCalls.length;
      const store = await openConfiguredKnowledgeStore(readKnowledgeSettings(variables), variables);
      expect(store.engine.kind).toBe("postgres");
      await store.upsertDocuments("adr", [
        {
          id: "adr-9",
          uri: "https://git.example.com/adr/9.md",
          title: "ADR 9: blue-green deploys",
          text: "Deploys switch traffic between two identical environments so a rollback is one switch.",
          readers: { groups: ["platform"] },
        },
      ]);
      const principal = { subject: "frank", groups: ["platform"], authenticated: true };
      const [hit] = await store.search({ text: "rollback switch environments", principal, mode: "vector" });
      expect(hit).toMatchObject({ documentId: "adr-9" });
      await store.close();
      const made = llm.embeddingCalls.slice(calls);
      // The length probe, the document, the question: each over the provider's own protocol.
      expect(made.length).toBeGreaterThanOrEqual(3);
      for (const call of made) expect(decodeURIComponent(call.path)).toBe(path);
    },
  );

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
