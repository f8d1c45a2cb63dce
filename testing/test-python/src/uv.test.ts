import { afterEach, describe, expect, it, vi } from "vitest";
import { uvEnv } from "./uv.js";

describe("uvEnv", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("carries pip's index and CA bundle over to uv, which reads no pip configuration", () => {
    vi.stubEnv("PIP_INDEX_URL", "https://pypi.example.internal/simple");
    vi.stubEnv("PIP_CERT", "/etc/ssl/certs/internal.pem");
    vi.stubEnv("UV_DEFAULT_INDEX", undefined);
    vi.stubEnv("UV_INDEX_URL", undefined);
    vi.stubEnv("SSL_CERT_FILE", undefined);
    const env = uvEnv();
    expect(env.UV_DEFAULT_INDEX).toBe("https://pypi.example.internal/simple");
    expect(env.SSL_CERT_FILE).toBe("/etc/ssl/certs/internal.pem");
    expect(env.UV_PYTHON_DOWNLOADS).toBe("never");
    expect(env.UV_SYSTEM_CERTS).toBe("1");
  });

  it("leaves uv's own settings as they are", () => {
    vi.stubEnv("PIP_INDEX_URL", "https://pip.example/simple");
    vi.stubEnv("UV_DEFAULT_INDEX", "https://uv.example/simple");
    vi.stubEnv("PIP_CERT", "/pip.pem");
    vi.stubEnv("SSL_CERT_FILE", "/own.pem");
    const env = uvEnv({ UV_PYTHON: "/usr/bin/python3.13" });
    expect(env.UV_DEFAULT_INDEX).toBe("https://uv.example/simple");
    expect(env.SSL_CERT_FILE).toBe("/own.pem");
    expect(env.UV_PYTHON).toBe("/usr/bin/python3.13");
  });
});
