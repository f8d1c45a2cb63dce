import { describe, expect, it } from "vitest";
import { DEFAULT_URL, parseCliArgs, UsageError } from "./args.js";

describe("parseCliArgs", () => {
  it("talks to the supervisor on localhost:8000 by default", () => {
    expect(parseCliArgs([], {})).toEqual({
      kind: "run",
      options: { url: DEFAULT_URL, json: false, verbose: false },
    });
    expect(DEFAULT_URL).toBe("http://localhost:8000");
  });

  it("takes the URL and token from SWITCHBOARD_URL and SWITCHBOARD_TOKEN, flags winning", () => {
    const env = { SWITCHBOARD_URL: "http://jira:8006", SWITCHBOARD_TOKEN: "env-token" };
    expect(parseCliArgs([], env)).toMatchObject({ options: { url: "http://jira:8006", token: "env-token" } });
    expect(parseCliArgs(["--url", "http://gh:8001", "--token", "flag-token"], env)).toMatchObject({
      options: { url: "http://gh:8001", token: "flag-token" },
    });
  });

  it("reads a one-shot message with its options", () => {
    const parsed = parseCliArgs(
      ["-m", "list my issues", "--json", "-v", "--context", "c1", "--task", "t1"],
      {},
    );
    expect(parsed).toEqual({
      kind: "run",
      options: {
        url: DEFAULT_URL,
        message: "list my issues",
        json: true,
        verbose: true,
        contextId: "c1",
        taskId: "t1",
      },
    });
  });

  it("shows help", () => {
    expect(parseCliArgs(["--help"], {})).toEqual({ kind: "help" });
  });

  it.each([
    [["--json"], "--json only works with --message"],
    [["--task", "t1"], "--task only works with --message"],
    [["--message", "  "], "--message needs some text"],
    [
      ["--url", "localhost:8000"],
      '--url must be an http(s) URL such as http://localhost:8000, got "localhost:8000"',
    ],
    [["--nope"], "Unknown option '--nope'"],
    [["hello"], "Unexpected argument 'hello'"],
  ])("rejects %j with a message naming the problem", (argv, message) => {
    expect(() => parseCliArgs(argv, {})).toThrow(UsageError);
    expect(() => parseCliArgs(argv, {})).toThrow(message);
  });
});
