import type { Part } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { type Answering, answerFor, CLOSED_QUESTION } from "./answer-pause.js";
import { type ChangeConfirmation, changeText, type PendingInterrupt, questionFor } from "./interrupts.js";

const text = (value: string): Part[] => [
  { content: { $case: "text", value }, metadata: undefined, filename: "", mediaType: "text/plain" },
];
const NOW = 1_000_000;
const change: ChangeConfirmation = {
  change: 'Create a Jira Bug in OPS: "disk full".',
  tool: "create_issue",
  args: { project: "OPS", summary: "disk full", issue_type: "Bug" },
  argsHash: "h1",
  taskId: "task-1",
  subject: "alice",
  askedAt: NOW - 1000,
};
const pending: PendingInterrupt[] = [{ id: "i1", value: change }];
const message = (words: string, overrides: Partial<Answering> = {}): Answering => ({
  parts: text(words),
  taskId: "task-1",
  subject: "alice",
  now: NOW,
  expiryMs: 900_000,
  ...overrides,
});

describe("answerFor", () => {
  it("resumes the asker's explicit answer on the asking task, bound to the hash shown", () => {
    expect(answerFor(pending, message("yes"))).toEqual({
      kind: "resume",
      resume: { i1: { decision: "approve", argsHash: "h1" } },
    });
    expect(answerFor(pending, message("no"))).toEqual({
      kind: "resume",
      resume: { i1: { decision: "decline", argsHash: "h1" } },
    });
  });

  it("is a new turn for a message that names no task, or another", () => {
    expect(answerFor(pending, message("yes", { taskId: undefined }))).toEqual({ kind: "new" });
    expect(answerFor(pending, message("create another", { taskId: "task-2" }))).toEqual({ kind: "new" });
    expect(answerFor(pending, message("yes", { taskId: "task-2" }))).toEqual({
      kind: "closed",
      text: CLOSED_QUESTION,
    });
    expect(answerFor([], message("yes"))).toEqual({ kind: "closed", text: CLOSED_QUESTION });
    expect(answerFor([], message("hello", { taskId: undefined }))).toEqual({ kind: "new" });
  });

  it("asks again for anything but an explicit decision, and for another principal's", () => {
    const unclear = answerFor(pending, message("ok wait, don't do that"));
    expect(unclear).toMatchObject({ kind: "ask" });
    expect(unclear.kind === "ask" && unclear.question).toMatch(/^Please answer yes or no/);
    const other = answerFor(pending, message("yes", { subject: "bob" }));
    expect(other.kind === "ask" && other.question).toMatch(/^Not allowed: bob may not approve or decline/);
  });

  it("holds a decision that names the arguments shown for exactly those", () => {
    const decided = (argsHashes: string[]): Answering => ({
      ...message(""),
      parts: [
        {
          content: { $case: "data", value: { decision: "approve", argsHashes } },
          metadata: undefined,
          filename: "",
          mediaType: "application/json",
        },
      ],
    });
    expect(answerFor(pending, decided(["h1"]))).toMatchObject({ kind: "resume" });
    const other = answerFor(pending, decided(["h2"]));
    expect(other.kind === "ask" && other.question).toMatch(
      /^Nothing ran: the answer was for other arguments/,
    );
  });

  it("declines an expired change whatever the answer, saying why", () => {
    const late = answerFor(pending, message("yes", { now: NOW + 900_000 }));
    expect(late).toMatchObject({ kind: "resume", resume: { i1: { decision: "decline" } } });
    expect(JSON.stringify(late)).toContain("CONFIRMATION_EXPIRY_SECONDS");
  });

  it("passes a relayed question the user's words and their decision", () => {
    const relayed: PendingInterrupt[] = [
      { id: "r1", value: { question: "The jira agent asks: …", taskId: "task-1", subject: "alice" } },
    ];
    expect(answerFor(relayed, message("yes"))).toEqual({
      kind: "resume",
      resume: { r1: { text: "yes", decision: { decision: "approve" } } },
    });
    expect(answerFor(relayed, message("PLAT, please"))).toEqual({
      kind: "resume",
      resume: { r1: { text: "PLAT, please" } },
    });
  });
});

describe("the question", () => {
  it("shows every argument whole after the tool's sentence", () => {
    const long = "x".repeat(2000);
    const shown = changeText({
      ...change,
      args: { ...change.args, description: `${long}\nsecond line`, labels: ["a"] },
    });
    expect(shown).toContain(`description: ${long}\n    second line`);
    expect(shown).toContain('labels: [\n      "a"\n    ]');
    expect(shown).toContain("issue_type: Bug");
    expect(questionFor(pending)).toBe(
      'Create a Jira Bug in OPS: "disk full".\ncreate_issue will be sent exactly:\n  project: OPS\n  summary: disk full\n  issue_type: Bug\nShall I go ahead? Answer yes or no.',
    );
  });
});
