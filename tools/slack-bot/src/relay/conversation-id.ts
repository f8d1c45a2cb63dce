import { createHash } from "node:crypto";
import type { ChatPlace } from "./chat-platform.js";

/**
 * The A2A contextId of a chat thread: a UUID-shaped name derived from the platform, workspace, channel
 * and thread, so every replica and every restart sends the same one, CAIPE's Python agents (which want
 * UUIDs) take it as it is, and it says nothing readable about the workspace. The supervisor keeps each
 * user's thread apart under it (its thread id is prefixed with the caller's subject).
 */
export function contextIdFor(platform: string, place: ChatPlace): string {
  const hex = createHash("sha256")
    .update([platform, place.workspace, place.channel, place.thread].join("\n"))
    .digest("hex");
  // Version 8 (custom) and the RFC 9562 variant bits, as a UUID carries them.
  const variant = ((Number.parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
