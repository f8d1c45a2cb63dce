import { describe, expect, it } from "vitest";
import { fakesEnvironment } from "./run.js";

describe("the fleet's environment on the fakes", () => {
  it("keeps none of the developer's AWS or Open-Meteo settings: the fakes' take their place", () => {
    const env = fakesEnvironment(
      {
        PATH: "/usr/bin",
        OPENAI_API_KEY: "sk-kept",
        AWS_PROFILE: "production",
        AWS_ENDPOINT_URL_S3: "https://s3.amazonaws.com",
        AWS_SESSION_TOKEN: "real-session",
        AWS_WEB_IDENTITY_ROLE_ARN: "arn:aws:iam::123456789012:role/real",
        WEATHER_API_KEY: "commercial-key",
        ATLASSIAN_API_URL: "https://acme.atlassian.net",
      },
      { AWS_ENDPOINT_URL: "http://127.0.0.1:5000", ATLASSIAN_API_URL: "http://127.0.0.1:6000" },
    );
    expect(env).toEqual({
      PATH: "/usr/bin",
      OPENAI_API_KEY: "sk-kept",
      AWS_ENDPOINT_URL: "http://127.0.0.1:5000",
      ATLASSIAN_API_URL: "http://127.0.0.1:6000",
    });
  });
});
