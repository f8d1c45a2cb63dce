import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { filteredError, filteredReason } from "./failures.js";

interface StreamResult {
  stream: AsyncIterable<{
    candidates?: { content?: unknown; finishReason?: string }[];
    promptFeedback?: { blockReason?: string };
  }>;
}
interface GeminiClient {
  generateContentStream(...args: unknown[]): Promise<StreamResult>;
}

/**
 * ChatGoogleGenerativeAI's stream skips a response whose candidate has no content, so an answer Gemini's
 * safety filters blocked (finishReason SAFETY, or a prompt's blockReason) would stream as nothing at all.
 * This watches the client's stream and ends it with the filtered-answer error instead. (Whole replies
 * need no help: the client throws EmptyContentError with the reason, which bounded-calls reads.)
 */
export function watchGeminiBlocks(model: BaseChatModel): void {
  const holder = model as unknown as { client?: GeminiClient };
  const client = holder.client;
  if (!client || typeof client.generateContentStream !== "function") return;
  const original = client.generateContentStream.bind(client);
  client.generateContentStream = async (...args: unknown[]) => {
    const result = await original(...args);
    return { ...result, stream: watched(result.stream) };
  };
}

async function* watched(stream: StreamResult["stream"]) {
  for await (const response of stream) {
    const candidate = response.candidates?.[0];
    const blockReason = response.promptFeedback?.blockReason;
    if (!candidate && blockReason) throw filteredError("google-gemini", `blockReason: ${blockReason}`);
    const reason =
      candidate && !candidate.content ? filteredReason({ finishReason: candidate.finishReason }) : undefined;
    if (reason) throw filteredError("google-gemini", reason);
    yield response;
  }
}
