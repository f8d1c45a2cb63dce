import { Writable } from "node:stream";
import type { TurnEvent, TurnResult } from "@switchboard/a2a-client";
import { describe, expect, it } from "vitest";
import { Output, progressText, styleFor, TurnPrinter } from "./render.js";

function captured() {
  let text = "";
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

const plain = styleFor({ isTTY: false });
const result = (partial: Partial<TurnResult>): TurnResult => ({
  taskId: "t1",
  contextId: "c1",
  state: "completed",
  text: "",
  artifacts: [],
  ...partial,
});
const status = (text: string, metadata?: Record<string, unknown>): TurnEvent => ({
  kind: "status",
  taskId: "t1",
  state: "working",
  text,
  ...(metadata ? { metadata } : {}),
});
const chunk = (text: string, append: boolean): TurnEvent => ({
  kind: "artifact",
  taskId: "t1",
  name: "answer",
  artifactId: "a1",
  text,
  append,
  lastChunk: !append,
});

describe("TurnPrinter", () => {
  it("streams answer tokens, then prints only what the final chunk adds", () => {
    const out = captured();
    const output = new Output(out.stream, plain);
    const printer = new TurnPrinter({ answer: output, progress: output, problems: output });
    printer.onEvent(status("Calling list_notes"));
    printer.onEvent(chunk("Two ", true));
    printer.onEvent(chunk("notes", true));
    printer.onEvent(chunk("Two notes: milk, eggs", false));
    printer.finish(result({ text: "Two notes: milk, eggs" }));
    expect(out.text()).toBe("… Calling list_notes\nTwo notes: milk, eggs\n");
  });

  it("puts a progress line that arrives mid-answer on a line of its own", () => {
    const out = captured();
    const output = new Output(out.stream, plain);
    const printer = new TurnPrinter({ answer: output, progress: output, problems: output });
    printer.onEvent(chunk("Looking", true));
    printer.onEvent(status("jira: Calling search_issues"));
    printer.onEvent(chunk("Looking it up", false));
    printer.finish(result({ text: "Looking it up" }));
    expect(out.text()).toBe("Looking\n… jira: Calling search_issues\n it up\n");
  });

  it("prints the final text when nothing streamed, a question, or a failure", () => {
    const out = captured();
    const output = new Output(out.stream, plain);
    new TurnPrinter({ answer: output, problems: output }).finish(result({ text: "Done." }));
    new TurnPrinter({ answer: output, problems: output }).finish(
      result({ state: "input-required", text: "Create it?", question: "Create it?" }),
    );
    new TurnPrinter({ answer: output, problems: output }).finish(
      result({ state: "failed", text: "No token." }),
    );
    expect(out.text()).toBe("Done.\n? Create it?\n✗ failed: No token.\n");
  });

  it("shows no progress when it has nowhere to go", () => {
    const out = captured();
    const output = new Output(out.stream, plain);
    const printer = new TurnPrinter({ answer: output, problems: output });
    printer.onEvent(status("Calling list_notes"));
    printer.finish(result({ text: "ok" }));
    expect(out.text()).toBe("ok\n");
  });
});

describe("progressText", () => {
  it("names another agent's tool call, keeps the supervisor's relayed lines as they are", () => {
    expect(
      progressText(status("Calling search_issues", { kind: "tool-call", agent: "jira" }), "supervisor"),
    ).toBe("jira: Calling search_issues");
    expect(progressText(status("Calling search_issues", { kind: "tool-call", agent: "jira" }), "jira")).toBe(
      "Calling search_issues",
    );
    expect(progressText(status("jira: Calling search_issues", { kind: "agent-status", agent: "jira" }))).toBe(
      "jira: Calling search_issues",
    );
    expect(progressText(status("Asking the jira agent", { kind: "agent-call", agent: "jira" }))).toBe(
      "Asking the jira agent",
    );
    expect(progressText({ kind: "status", taskId: "t1", state: "completed", text: "Done." })).toBeUndefined();
  });
});

describe("styleFor", () => {
  it("colors a terminal unless NO_COLOR is set, and never a pipe", () => {
    expect(styleFor({ isTTY: true }, {}).dim("x")).toBe("\u001b[2mx\u001b[22m");
    expect(styleFor({ isTTY: true }, { NO_COLOR: "1" }).dim("x")).toBe("x");
    expect(styleFor({ isTTY: false }, {}).dim("x")).toBe("x");
  });
});
