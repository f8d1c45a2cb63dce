import type { Part } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { readDecision } from "./decision.js";

const text = (value: string): Part => ({
  content: { $case: "text", value },
  metadata: undefined,
  filename: "",
  mediaType: "text/plain",
});
const data = (value: unknown): Part => ({
  content: { $case: "data", value },
  metadata: undefined,
  filename: "",
  mediaType: "application/json",
});

describe("readDecision", () => {
  it.each([
    ["yes", "approve"],
    ["  YES. ", "approve"],
    ["approve", "approve"],
    ["no", "decline"],
    ["Decline!", "decline"],
    ["cancel", "decline"],
  ])("reads the whole message %j as %s", (words, decision) => {
    expect(readDecision([text(words)])).toEqual({ decision });
  });

  it.each([
    "ok wait, don't do that",
    "yes… no, cancel it",
    "OK",
    "sure",
    "yes please, and delete the rest",
    "no problem, go ahead",
    "",
  ])("finds no decision in %j", (words) => {
    expect(readDecision([text(words)])).toBeUndefined();
  });

  it("reads a decision part, alone or with the same words", () => {
    expect(readDecision([data({ decision: "approve" })])).toEqual({ decision: "approve" });
    expect(readDecision([text("no"), data({ decision: "decline" })])).toEqual({ decision: "decline" });
  });

  it("finds none when a part and the words disagree, or a part is not a decision", () => {
    expect(readDecision([text("no, wait"), data({ decision: "approve" })])).toBeUndefined();
    expect(readDecision([text("no"), data({ decision: "approve" })])).toBeUndefined();
    expect(readDecision([data({ decision: "yes please" })])).toBeUndefined();
    expect(readDecision([data({ decision: "approve" }), data({ decision: "decline" })])).toBeUndefined();
  });
});
