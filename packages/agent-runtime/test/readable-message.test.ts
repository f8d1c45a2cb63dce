import { SwitchboardError } from "@switchboard/common";
import { describe, expect, it } from "vitest";
import { describeFailure, failureKind, readableMessage } from "../src/turn/failure.js";
import { HttpStatusError } from "../src/vendor-client/http-json.js";

describe("which error messages people may read", () => {
  it("a SwitchboardError's (also as a cause), a vendor's refusal, a plain sentence", () => {
    const known = new SwitchboardError("x.y", "third-party", "The desk is closed.");
    expect(readableMessage(known)).toBe("The desk is closed.");
    expect(readableMessage(new Error("wrapped", { cause: known }))).toBe("The desk is closed.");
    expect(readableMessage(new HttpStatusError(409, new Headers(), "name is taken", "POST /pets"))).toBe(
      "the API answered HTTP 409 to POST /pets: name is taken",
    );
    expect(readableMessage(new Error('No Slack channel named "ops"; list_channels shows them.'))).toBe(
      'No Slack channel named "ops"; list_channels shows them.',
    );
    // A URL's path is not a file of this machine.
    expect(readableMessage(new Error("GET /api/v3/pets answered nothing"))).toBe(
      "GET /api/v3/pets answered nothing",
    );
  });

  it("never a stack frame, a path of this machine, JavaScript's own errors or a thrown non-Error", () => {
    const cases: unknown[] = [
      new Error("boom\n    at run (src/tool.ts:3:9)"),
      new Error("cannot open /work/wt/requests/.env"),
      new Error(`cannot open ${process.cwd()}/settings.json`),
      new Error("cannot load /home/ann/.config/x"),
      new Error("cannot read C:\\Users\\ann\\x"),
      new Error("failed in node_modules/langchain/dist/x.js"),
      new Error("see file:///srv/app/main.js"),
      new TypeError("Cannot read properties of undefined (reading 'name')"),
      "a string",
      { message: "an object" },
    ];
    for (const error of cases) expect(readableMessage(error), String(error)).toBeUndefined();
    expect(
      failureKind(Object.assign(new Error("ENOENT: no such file, open '/work/x'"), { code: "ENOENT" })),
    ).toBe("ENOENT");
    expect(failureKind(new TypeError("x"))).toBe("TypeError");
    expect(failureKind("x")).toBe("string");
    expect(describeFailure(new Error("boom\n    at x (/work/a.js:1:1)"), "desk")).toBe(
      "The desk agent failed (Error).",
    );
  });
});
