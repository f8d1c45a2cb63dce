import { describe, expect, it } from "vitest";
import { agentTemplateValues, renderTemplate, renderTemplateDir } from "./templates.js";

describe("agent templates", () => {
  const values = agentTemplateValues({ name: "status-page", port: 8017, description: 'Says "hi"' });

  it("derives every spelling of the name the code needs", () => {
    expect(values).toMatchObject({
      title: "Status Page",
      Pascal: "StatusPage",
      camel: "statusPage",
      snake: "status_page",
      ENV: "STATUS_PAGE",
      descriptionJson: '"Says \\"hi\\""',
    });
  });

  it("renders the whole package with no placeholder left, the test file named after the agent", () => {
    const files = renderTemplateDir("agent", values);
    expect([...files.keys()].sort()).toEqual([
      "README.md",
      "package.json",
      "src/agent.ts",
      "src/client.ts",
      "src/env.ts",
      "src/index.ts",
      "src/prompt.ts",
      "src/tools.ts",
      "test/fake-api.ts",
      "test/status-page.int.test.ts",
      "tsconfig.build.json",
      "tsconfig.json",
      "vitest.config.ts",
    ]);
    for (const [file, text] of files) expect(text, file).not.toMatch(/\{\{\w+\}\}/);
    const manifest = JSON.parse(files.get("package.json") ?? "") as Record<string, unknown>;
    expect(manifest).toMatchObject({
      name: "@switchboard/agent-status-page",
      description: 'Says "hi"',
      switchboard: { port: 8017 },
    });
    expect(files.get("src/env.ts")).toContain("STATUS_PAGE_API_URL: baseUrlSetting(),");
  });

  it("refuses a placeholder it does not know", () => {
    expect(() => renderTemplate("{{nope}}", values, "x.tmpl")).toThrow(
      "x.tmpl: unknown placeholder {{nope}}",
    );
  });
});
