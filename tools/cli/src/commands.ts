/** What one line typed in the chat means: a command of the client's own, or text for the agent. */
export type ChatLine = { kind: "quit" } | { kind: "new" } | { kind: "help" } | { kind: "send"; text: string };

/** The client's own commands, exactly as typed (no arguments). */
const CLIENT_COMMANDS: Record<string, ChatLine["kind"]> = {
  "/quit": "quit",
  "/exit": "quit",
  "/new": "new",
  "/help": "help",
};

/**
 * Reads a line of the chat. Only the few client commands are the client's; every other line goes to
 * the agent, `/<tool> …` lines too (how offline mode calls tools). A line that starts with `//` goes
 * to the agent without its first `/`, so a tool named like a client command stays reachable:
 * `//new` sends `/new`.
 */
export function readChatLine(line: string): ChatLine {
  const text = line.trim();
  if (text.startsWith("//")) return { kind: "send", text: text.slice(1) };
  const command = CLIENT_COMMANDS[text];
  return command && command !== "send" ? ({ kind: command } as ChatLine) : { kind: "send", text };
}

export const CHAT_HELP =
  "/new starts a new conversation, /quit or Ctrl-D leaves, /help shows this. Every other line goes to the agent, /<tool> commands too; //<text> sends /<text>.";
