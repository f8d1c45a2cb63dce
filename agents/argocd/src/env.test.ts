import { describe, expect, it } from "vitest";
import { readArgoCdSettings } from "./env.js";

describe("the Argo CD agent's settings under CAIPE's names", () => {
  it("takes ARGOCD_URL and ARGOCD_AUTH_TOKEN when the usual names are unset", () => {
    expect(
      readArgoCdSettings({ ARGOCD_URL: "https://argocd.example.com/api/v1", ARGOCD_AUTH_TOKEN: "t1" }),
    ).toMatchObject({ url: "https://argocd.example.com", token: "t1" });
  });

  it("prefers ARGOCD_API_URL and then ARGOCD_API_TOKEN, ARGOCD_TOKEN, ARGOCD_AUTH_TOKEN", () => {
    const env = {
      ARGOCD_API_URL: "https://a.example.com",
      ARGOCD_URL: "https://b.example.com",
      ARGOCD_TOKEN: "t2",
      ARGOCD_AUTH_TOKEN: "t3",
    };
    expect(readArgoCdSettings(env)).toMatchObject({ url: "https://a.example.com", token: "t2" });
    expect(readArgoCdSettings({ ...env, ARGOCD_VERIFY_SSL: "false" }).verifyTls).toBe(false);
    expect(readArgoCdSettings({ ...env, ARGOCD_API_TOKEN: "t1" }).token).toBe("t1");
  });
});
