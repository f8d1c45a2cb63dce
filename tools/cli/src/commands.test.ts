import { describe, expect, it } from "vitest";
import { readChatLine } from "./commands.js";

describe("readChatLine", () => {
  it("keeps /new, /quit, /exit and /help for the client", () => {
    expect(readChatLine("/new")).toEqual({ kind: "new" });
    expect(readChatLine("  /quit ")).toEqual({ kind: "quit" });
    expect(readChatLine("/exit")).toEqual({ kind: "quit" });
    expect(readChatLine("/help")).toEqual({ kind: "help" });
  });

  it("sends tool commands to the agent, as offline mode asks users to type them", () => {
    expect(readChatLine('/call_agent agent=jira message="open issues in PLAT"')).toEqual({
      kind: "send",
      text: '/call_agent agent=jira message="open issues in PLAT"',
    });
    expect(readChatLine("/search_issues jql='project = PLAT'")).toMatchObject({ kind: "send" });
    // A client command with arguments is not the client's: a tool may be called so.
    expect(readChatLine("/new summary=x")).toEqual({ kind: "send", text: "/new summary=x" });
  });

  it("sends a line starting with // without its first slash, so no tool name is out of reach", () => {
    expect(readChatLine("//new")).toEqual({ kind: "send", text: "/new" });
    expect(readChatLine("//quit now")).toEqual({ kind: "send", text: "/quit now" });
  });

  it("sends plain text as it is", () => {
    expect(readChatLine(" list my issues ")).toEqual({ kind: "send", text: "list my issues" });
  });
});
