import { describe, expect, it } from "vitest";
import { principalTags, readerTags } from "./readers.js";

describe("readers as tags", () => {
  it("keeps groups, users and everyone apart, so a name shaped like another kind matches nothing else", () => {
    expect(readerTags("everyone", "doc")).toEqual(["everyone"]);
    expect(readerTags({ groups: ["sre", "sre", "everyone"], users: ["alice"] }, "doc")).toEqual([
      "group:sre",
      "group:everyone",
      "user:alice",
    ]);
    expect(
      principalTags({ subject: "bob", groups: ["user:alice", "everyone"], authenticated: true }),
    ).toEqual(["everyone", "user:bob", "group:user:alice", "group:everyone"]);
  });

  it("lets an unauthenticated principal read only what everyone may, whatever it carries", () => {
    expect(principalTags({ subject: "local", groups: ["sre"], authenticated: false })).toEqual(["everyone"]);
    expect(principalTags({ subject: "", groups: ["sre"], authenticated: true })).toEqual(["everyone"]);
  });

  it("refuses a document with no reader, naming the document and the fix", () => {
    expect(() => readerTags({}, "runbooks/restart.md")).toThrow(
      'Document "runbooks/restart.md" names no reader: give it readers "everyone", or groups or users who may read it.',
    );
    expect(() => readerTags({ groups: [" "], users: [""] }, "x")).toThrow("names no reader");
  });
});
