import { describe, expect, it } from "vitest";
import { z } from "zod";
import { firstSetting, parseEnv, withoutEmpty } from "./env.js";
import { SwitchboardError } from "./errors.js";

const Schema = z.object({
  PORT: z.coerce.number().int().max(65_535).optional(),
  MODE: z.enum(["a", "b"]).default("a"),
  SECRET: z.string().min(8, "use at least 8 characters").optional(),
});

describe("parseEnv", () => {
  it("returns the parsed values, blank variables counting as unset", () => {
    expect(
      parseEnv(Schema, { PORT: "8080", MODE: "  ", OTHER: "x" }, { code: "t.config", what: "test settings" }),
    ).toEqual({
      PORT: 8080,
      MODE: "a",
    });
  });

  it("throws a user SwitchboardError naming every bad variable and how to fix it", () => {
    const read = () =>
      parseEnv(Schema, { PORT: "99999", SECRET: "short" }, { code: "t.config", what: "test settings" });
    expect(read).toThrow(SwitchboardError);
    try {
      read();
    } catch (error) {
      expect(error).toMatchObject({ code: "t.config", category: "user" });
      expect((error as Error).message).toMatch(
        /^Invalid test settings: PORT: .+; SECRET: use at least 8 characters$/,
      );
    }
  });
});

describe("withoutEmpty", () => {
  it("drops unset and blank variables and keeps the rest as written", () => {
    expect(withoutEmpty({ A: "", B: "  ", C: undefined, D: " x " })).toEqual({ D: " x " });
  });
});

describe("firstSetting", () => {
  it("takes the first name set, in the order given, blank values counting as unset", () => {
    const env = { JIRA_EMAIL: "  ", JIRA_USER: " me@example.com ", ATLASSIAN_EMAIL: "" };
    expect(firstSetting(env, "ATLASSIAN_EMAIL", "JIRA_EMAIL", "JIRA_USER")).toBe("me@example.com");
    expect(firstSetting({ A: "a", B: "b" }, "A", "B")).toBe("a");
    expect(firstSetting({}, "A", "B")).toBeUndefined();
  });
});
