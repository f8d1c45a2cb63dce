import { createHash } from "node:crypto";
import { type ChatCompletionRequest, messageText } from "@switchboard-testing/test-llm";
import { SignJWT } from "jose";

/** Signs a user's token as the memory tests' agents (AUTH_MODE=jwt, HS256 with `secret`) accept it. */
export function userTokens(secret: string): (sub: string) => Promise<string> {
  const key = new TextEncoder().encode(secret);
  return (sub) =>
    new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer("switchboard-test")
      .setIssuedAt()
      .setSubject(sub)
      .setAudience("switchboard")
      .setExpirationTime("10m")
      .sign(key);
}

/** The key a user's memories are stored under: their subject's hash, as threads are. */
export const subjectKey = (sub: string) => createHash("sha256").update(sub).digest("hex").slice(0, 16);

/** The system prompt of a chat request (where recalled memories go). */
export const systemOf = (request: ChatCompletionRequest) =>
  request.messages
    .filter((message) => message.role === "system")
    .map((message) => messageText(message.content))
    .join("\n");
