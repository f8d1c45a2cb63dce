import { describe, expect, it } from "vitest";
import { readSourcesFile } from "./definition.js";

const FILE = `
sources:
  - id: ops-wiki
    type: confluence
    url: https://acme.atlassian.net/wiki/
    spaces: [OPS]
    schedule: "0 */6 * * *"
    timezone: Europe/Amsterdam
    admins: [sre]
  - id: platform-docs
    type: github
    repo: acme/platform
    paths: [docs, adr]
    match_users: true
  - id: catalog
    type: backstage
    url: https://backstage.example.com
    readers: everyone
  - id: handbook
    type: web
    sitemap: https://handbook.example.com/sitemap.xml
    readers: { groups: [staff] }
  - id: uploads
    type: upload
    readers: { users: [alice] }
`;

describe("readSourcesFile", () => {
  it("reads every type, with the defaults filled in", () => {
    const [wiki, repo, catalog, web, uploads] = readSourcesFile(FILE);
    expect(wiki).toMatchObject({
      id: "ops-wiki",
      type: "confluence",
      url: "https://acme.atlassian.net/wiki",
      spaces: ["OPS"],
      username_env: "CONFLUENCE_USERNAME",
      token_env: "CONFLUENCE_API_TOKEN",
      match_users: false,
      admins: ["sre"],
    });
    expect(repo).toMatchObject({
      type: "github",
      api_url: "https://api.github.com",
      token_env: "GITHUB_PERSONAL_ACCESS_TOKEN",
      match_users: true,
    });
    expect(catalog).toMatchObject({ readers: "everyone", token_env: "BACKSTAGE_API_TOKEN" });
    expect(web).toMatchObject({ max_pages: 1000, readers: { groups: ["staff"] } });
    expect(uploads).toMatchObject({ type: "upload", readers: { users: ["alice"] } });
    expect(readSourcesFile("sources: []")).toEqual([]);
  });

  it("names every bad entry, its field and the fix at once", () => {
    const bad = `
sources:
  - id: wiki
    type: confluence
    url: ftp://wiki
    spaces: []
    token_env: xoxb-123-secret
    readers: everyone
  - id: docs
    type: gopher
  - id: handbook
    type: web
    readers: { groups: [] }
  - id: wiki
    type: upload
    readers: everyone
  - type: upload
    id: wiki
    readers: everyone
  - id: leak
    type: github
    repo: ../..
    api_url: https://attacker.example
    token_env: OPENAI_API_KEY
`;
    let message = "";
    try {
      readSourcesFile(bad);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("KNOWLEDGE_SOURCES_FILE");
    expect(message).toContain("sources[0] (wiki) url: must be an http(s) URL");
    expect(message).toContain("sources[0] (wiki) spaces");
    expect(message).toContain("sources[0] (wiki) token_env: must be the NAME of an environment variable");
    expect(message).toContain("sources[0] (wiki) readers: is not taken here");
    expect(message).toContain("sources[1] (docs) type");
    expect(message).toContain("sources[2] (handbook) readers");
    expect(message).toContain("needs urls (pages to read) or a sitemap");
    expect(message).toContain('sources[4] (wiki): the id "wiki" is used twice');
    expect(message).toContain("sources[5] (leak) repo: must be owner/name");
    expect(message).toContain(
      "sources[5] (leak) token_env: must name a variable starting with GITHUB_, KNOWLEDGE_: a source sends only a credential meant for its vendor",
    );
    // A value where a variable's name belongs is never repeated.
    expect(message).not.toContain("xoxb-123-secret");
  });

  it("refuses a schedule or time zone croner would not take, naming the entry", () => {
    const entry = (extra: string) => `sources:\n  - id: x\n    type: upload\n    readers: everyone\n${extra}`;
    expect(() => readSourcesFile(entry('    schedule: "every day"\n'))).toThrow(
      /sources\[0\] \(x\) schedule: "every day" is not a cron pattern/,
    );
    expect(() => readSourcesFile(entry('    schedule: "0 3 * * *"\n    timezone: Mars/Olympus\n'))).toThrow(
      /sources\[0\] \(x\) timezone: "Mars\/Olympus" is not a time zone/,
    );
    expect(() => readSourcesFile(entry("    timezone: UTC\n"))).toThrow(/timezone: is for a schedule/);
    expect(
      readSourcesFile(entry('    schedule: "0 3 * * 1-5"\n    timezone: Europe/Amsterdam\n'))[0],
    ).toMatchObject({
      schedule: "0 3 * * 1-5",
      timezone: "Europe/Amsterdam",
    });
  });

  it("refuses text that is not a sources file, saying what it must be", () => {
    expect(() => readSourcesFile("sources: [")).toThrow(/not valid YAML/);
    expect(() => readSourcesFile("- id: x")).toThrow(/a list `sources:`/);
    expect(() => readSourcesFile("sources:\n  - id: x\n    type: upload\n")).toThrow(
      /sources\[0\] \(x\) readers/,
    );
  });
});
