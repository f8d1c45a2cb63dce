import { describe, expect, it } from "vitest";
import { readVictorOpsSettings } from "./env.js";

describe("VictorOps settings: one organisation from X_VO_*, several from VICTOROPS_ORGS (CAIPE's names)", () => {
  it("reads each organisation of VICTOROPS_ORGS with its own URL, id and key, ahead of X_VO_*", () => {
    const settings = readVictorOpsSettings({
      VICTOROPS_ORGS: JSON.stringify({
        acme: { api_url: "https://vo.acme.example/", api_id: "id-a", api_key: "key-a" },
        globex: { api_id: "id-g", api_key: "key-g" },
      }),
      X_VO_API_ID: "ignored",
      X_VO_API_KEY: "ignored",
      VICTOROPS_USERNAME: "alice",
    });
    expect(settings).toEqual({
      orgs: [
        { slug: "acme", url: "https://vo.acme.example", apiId: "id-a", apiKey: "key-a" },
        { slug: "globex", url: "https://api.victorops.com", apiId: "id-g", apiKey: "key-g" },
      ],
      source: "VICTOROPS_ORGS",
      username: "alice",
    });
    expect(readVictorOpsSettings({ X_VO_API_ID: "id", X_VO_API_KEY: "key" }).orgs).toEqual([
      { slug: "default", url: "https://api.victorops.com", apiId: "id", apiKey: "key" },
    ]);
  });

  it("names what is wrong with VICTOROPS_ORGS and how to write it, never repeating a key", () => {
    const message = (value: string) => {
      try {
        readVictorOpsSettings({ VICTOROPS_ORGS: value });
      } catch (error) {
        return (error as Error).message;
      }
      return "no error";
    };
    const broken = message('{"acme": {"api_id": "id-a", "api_key": "secret-key-123"');
    expect(broken).toContain("VICTOROPS_ORGS is not valid JSON");
    expect(broken).toContain('{"api_url", "api_id", "api_key"}');
    expect(broken).not.toContain("secret-key-123");
    expect(message('{"acme": {"api_url": "https://x", "api_key": "k"}}')).toBe(
      'VICTOROPS_ORGS org "acme" is missing api_id.',
    );
    expect(message('[{"api_id": "a"}]')).toContain("VICTOROPS_ORGS is not a JSON object of org slug");
    expect(message("{}")).toContain("VICTOROPS_ORGS names no organisation");
    expect(() => readVictorOpsSettings({})).toThrow(/set X_VO_API_ID, X_VO_API_KEY .* or VICTOROPS_ORGS/);
  });
});
