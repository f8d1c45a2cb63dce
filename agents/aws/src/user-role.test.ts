import { describe, expect, it } from "vitest";
import { readAwsSettings } from "./env.js";
import { roleSessionName } from "./user-role.js";

describe("the role session a signed-in user's AWS calls run under", () => {
  it("names the session after the user as they are, when STS's rule allows it", () => {
    expect(roleSessionName("alice@example.com")).toBe("alice@example.com");
    expect(roleSessionName("auth0|5f1a2b3c")).toMatch(/^auth0-5f1a2b3c-[0-9a-f]{8}$/);
  });

  it("keeps within 64 of [\\w+=,.@-], and keeps apart two users whose names clean alike", () => {
    const long = `${"x".repeat(80)}@example.com`;
    for (const name of [long, "ö ü", "a", "名前@example.com"]) {
      expect(roleSessionName(name)).toMatch(/^[\w+=,.@-]{2,64}$/);
    }
    expect(roleSessionName("a b")).not.toBe(roleSessionName("a/b"));
  });

  it("reads the role and session length, refusing values STS would refuse", () => {
    const role = "arn:aws:iam::123456789012:role/switchboard-users";
    expect(readAwsSettings({ AWS_WEB_IDENTITY_ROLE_ARN: role }).webIdentity).toEqual({ roleArn: role });
    expect(
      readAwsSettings({ AWS_WEB_IDENTITY_ROLE_ARN: role, AWS_ROLE_SESSION_DURATION_SECONDS: "1800" })
        .webIdentity,
    ).toEqual({ roleArn: role, durationSeconds: 1800 });
    expect(readAwsSettings({}).webIdentity).toBeUndefined();
    expect(() =>
      readAwsSettings({ AWS_WEB_IDENTITY_ROLE_ARN: role, AWS_ROLE_SESSION_DURATION_SECONDS: "60" }),
    ).toThrow("AWS_ROLE_SESSION_DURATION_SECONDS must be a whole number of seconds from 900 to 43200");
    expect(() => readAwsSettings({ AWS_WEB_IDENTITY_ROLE_ARN: "users" })).toThrow(
      "AWS_WEB_IDENTITY_ROLE_ARN must be an IAM role ARN",
    );
  });
});
