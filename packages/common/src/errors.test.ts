import { describe, expect, it } from "vitest";
import { isSwitchboardError, SwitchboardError } from "./errors.js";

describe("SwitchboardError", () => {
  it("carries a code, a category and the cause", () => {
    const cause = new Error("socket closed");
    const error = new SwitchboardError("checkpointer.unreachable", "system", "Cannot use MongoDB", { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("SwitchboardError");
    expect(error.code).toBe("checkpointer.unreachable");
    expect(error.category).toBe("system");
    expect(error.message).toBe("Cannot use MongoDB");
    expect(error.cause).toBe(cause);
  });

  it("is recognised by isSwitchboardError, other errors are not", () => {
    expect(isSwitchboardError(new SwitchboardError("x.y", "user", "bad"))).toBe(true);
    expect(isSwitchboardError(new Error("bad"))).toBe(false);
    expect(isSwitchboardError("bad")).toBe(false);
  });
});
