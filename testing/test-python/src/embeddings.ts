import { ensurePythonEnv } from "./python-env.js";
import { startPythonPeer } from "./python-process.js";

/** The model's name as the server reports it, for EMBEDDINGS_MODEL. */
export const STATIC_EMBEDDINGS_MODEL = "wordllama-l2-supercat-256";

/** A real small embeddings model (WordLlama, 256 numbers a vector) behind an OpenAI-compatible endpoint. */
export interface StaticEmbeddings {
  /** `http://127.0.0.1:<port>/v1`: OPENAI_BASE_URL. */
  baseUrl: string;
  /** The settings that send a store's embeddings here through the runtime's OpenAI client. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * Starts python/embeddings_server.py in the repo's `.venv-embeddings` (installed on first use): a
 * model that runs offline from its wheel's own files. Any API key works.
 */
export async function startStaticEmbeddings(
  options: { startTimeoutMs?: number } = {},
): Promise<StaticEmbeddings> {
  const env = await ensurePythonEnv({ name: "embeddings" });
  const peer = await startPythonPeer(env, "embeddings_server.py", ["0"], {
    label: "embeddings_server",
    startTimeoutMs: options.startTimeoutMs,
  });
  const baseUrl = `http://127.0.0.1:${peer.port}/v1`;
  return {
    baseUrl,
    env: {
      EMBEDDINGS_PROVIDER: "openai",
      EMBEDDINGS_MODEL: STATIC_EMBEDDINGS_MODEL,
      OPENAI_BASE_URL: baseUrl,
      OPENAI_API_KEY: "not-checked",
    },
    stop: peer.stop,
  };
}
