import { describe, expect, it } from "vitest";
import { z } from "zod";
import { firstSetting, notConfigured, parseEnv, withoutEmpty } from "./env.js";
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

describe("parseEnv for an agent's vendor settings", () => {
  const VendorEnv = z.object({
    ACME_API_URL: z
      .string()
      .trim()
      .transform((url) => url.replace(/\/+$/, "")),
    ACME_TOKEN: z.string().trim(),
    ACME_LIMIT: z.coerce.number().int().positive().default(10),
  });
  const options = {
    code: "acme.credentials",
    what: "Acme settings",
    aliases: { ACME_TOKEN: ["ACME_API_TOKEN", "ACME_TOKEN", "ACME_AUTH_TOKEN"] },
    unset: notConfigured("Acme", "the API's URL and a token"),
  };
  const failure = (env: NodeJS.ProcessEnv) => {
    try {
      parseEnv(VendorEnv, env, options);
    } catch (error) {
      return error as SwitchboardError;
    }
    throw new Error("expected a failure");
  };

  it("reads a setting under CAIPE's other names, the first set winning", () => {
    const env = { ACME_API_URL: "https://acme.example/", ACME_AUTH_TOKEN: "t3", ACME_TOKEN: " t2 " };
    expect(parseEnv(VendorEnv, env, options)).toEqual({
      ACME_API_URL: "https://acme.example",
      ACME_TOKEN: "t2",
      ACME_LIMIT: 10,
    });
    expect(parseEnv(VendorEnv, { ...env, ACME_API_TOKEN: "t1" }, options).ACME_TOKEN).toBe("t1");
    expect(parseEnv(VendorEnv, { ...env, ACME_API_TOKEN: "  " }, options).ACME_TOKEN).toBe("t2");
  });

  it("says which settings to set when required ones are unset, under the agent's code", () => {
    const error = failure({ ACME_AUTH_TOKEN: "" });
    expect(error).toMatchObject({ code: "acme.credentials", category: "user" });
    expect(error.message).toBe(
      "The Acme agent is not configured: set ACME_API_URL, ACME_TOKEN (the API's URL and a token).",
    );
  });

  it("says a bad value as the runtime does, after what is unset, never echoing a value", () => {
    const error = failure({ ACME_API_TOKEN: "secret-token-8c1f", ACME_LIMIT: "-3" });
    expect(error.message).toMatch(
      /^The Acme agent is not configured: set ACME_API_URL \(.+\)\. Invalid Acme settings: ACME_LIMIT: .+$/,
    );
    expect(error.message).not.toContain("secret-token-8c1f");
  });

  it("says a message that names its own setting, or the whole, as it is, under the code it names", () => {
    const Whole = z
      .object({
        MODE: z.string().refine((mode) => mode === "a", {
          error: "MODE must be a, the only mode there is.",
          params: { code: "acme.mode" },
        }),
        KEY: z.string().optional(),
      })
      .refine((env) => env.KEY !== undefined, { error: "The Acme agent needs KEY set as well." });
    expect(() => parseEnv(Whole, { MODE: "b", KEY: "k" }, options)).toThrow(
      expect.objectContaining({ code: "acme.mode", message: "MODE must be a, the only mode there is." }),
    );
    expect(() => parseEnv(Whole, { MODE: "a" }, options)).toThrow(
      expect.objectContaining({ code: "acme.credentials", message: "The Acme agent needs KEY set as well." }),
    );
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
