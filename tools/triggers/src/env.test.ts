import { describe, expect, it } from "vitest";
import { readTriggersSettings } from "./env.js";

const base = { MONGODB_URI: "mongodb://127.0.0.1:27017" };

describe("readTriggersSettings", () => {
  it("a missing TRIGGERS_CONFIG_FILE names the setting and what to put in it", () => {
    for (const env of [base, { ...base, TRIGGERS_CONFIG_FILE: "  " }]) {
      expect(() => readTriggersSettings(env)).toThrow(
        /^The trigger receiver has no tasks: set TRIGGERS_CONFIG_FILE to the path of a YAML file of tasks/,
      );
      expect(() => readTriggersSettings(env)).not.toThrow(/expected string|undefined/);
    }
  });

  it("reads the confirmation expiry the agents use (CONFIRMATION_EXPIRY_SECONDS, 900 by default)", () => {
    const file = { ...base, TRIGGERS_CONFIG_FILE: "tasks.yaml" };
    expect(readTriggersSettings(file).confirmationExpiryMs).toBe(900_000);
    expect(readTriggersSettings({ ...file, CONFIRMATION_EXPIRY_SECONDS: "60" }).confirmationExpiryMs).toBe(
      60_000,
    );
  });

  it("AUTH_MODE=jwt needs the token URL; the service's client is both its parts or none", () => {
    const jwt = {
      ...base,
      TRIGGERS_CONFIG_FILE: "tasks.yaml",
      AUTH_MODE: "jwt",
      AUTH_JWKS_URL: "https://idp.example.com/jwks",
      AUTH_ISSUER: "https://idp.example.com",
      AUTH_AUDIENCE: "switchboard",
    };
    expect(() => readTriggersSettings(jwt)).toThrow(/set DYNAMIC_AGENTS_OAUTH2_TOKEN_URL/);
    const url = { ...jwt, DYNAMIC_AGENTS_OAUTH2_TOKEN_URL: "https://idp.example.com/token" };
    expect(readTriggersSettings(url).identity?.client).toBeUndefined();
    expect(() => readTriggersSettings({ ...url, DYNAMIC_AGENTS_OAUTH2_CLIENT_ID: "triggers" })).toThrow(
      /DYNAMIC_AGENTS_OAUTH2_CLIENT_ID is set without DYNAMIC_AGENTS_OAUTH2_CLIENT_SECRET/,
    );
    const client = readTriggersSettings({
      ...url,
      DYNAMIC_AGENTS_OAUTH2_CLIENT_ID: "triggers",
      DYNAMIC_AGENTS_OAUTH2_CLIENT_SECRET: "s",
    }).identity?.client;
    expect(client).toMatchObject({ id: "triggers", secret: "s" });
  });
});
