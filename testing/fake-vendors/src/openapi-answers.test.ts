import { describe, expect, it } from "vitest";
import { openApiAnswers } from "./openapi-answers.js";

/** Box's metadata, trimmed: an example (data, not a schema) holding an `$id` field, twice. */
const metadata = {
  type: "object",
  properties: {
    metadata: {
      type: "object",
      example: { enterprise: { marketing: { $id: "01234500-12f1-1234-aa12-b1d234cb567e" } } },
      additionalProperties: {
        type: "object",
        example: { marketing: { $id: "01234500-12f1-1234-aa12-b1d234cb567e" } },
      },
    },
    // A property named as an annotation keyword is a property: still checked.
    example: { type: "string" },
  },
};

const document = {
  openapi: "3.0.2",
  info: { title: "Files", version: "1" },
  paths: {
    "/files/{id}": {
      get: {
        operationId: "getFile",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: { 200: { description: "ok", content: { "application/json": { schema: metadata } } } },
      },
    },
  },
};

describe("the fake's answer check reads examples as data", () => {
  it("an example holding an $id does not break the check; a wrong answer is still refused", () => {
    const answers = openApiAnswers(document as never);
    expect(answers.answerProblems("getFile", 200, { metadata: {}, example: "text" })).toEqual([]);
    expect(answers.answerProblems("getFile", 200, { example: 42 })).toEqual(["/example must be string"]);
    expect(answers.answerProblems("getFile", 200, answers.mock("getFile").body)).toEqual([]);
  });
});
