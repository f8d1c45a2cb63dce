import { describe, expect, it } from "vitest";
import { htmlTitle, htmlToMarkdown } from "./html.js";
import { checkedUrl, pageDocument, sitemapLocations } from "./web.js";

describe("web pages", () => {
  it("refuses what is not http(s), and private hosts named outright unless allowed", () => {
    expect(checkedUrl("https://docs.example.com/a#part", false).href).toBe("https://docs.example.com/a");
    for (const url of ["file:///etc/passwd", "gopher://x", "javascript:alert(1)"]) {
      expect(() => checkedUrl(url, true)).toThrow(/not http\(s\)/);
    }
    expect(() => checkedUrl("not a url", false)).toThrow(/is not a URL/);
    for (const url of [
      "http://127.0.0.1/",
      "http://localhost:8080/",
      "http://api.localhost/",
      "http://169.254.169.254/latest/meta-data/",
      "http://10.0.0.8/",
      "http://[::1]/",
      "http://[::ffff:127.0.0.1]/",
      "http://2130706433/",
      "http://0x7f.1/",
    ]) {
      expect(() => checkedUrl(url, false), url).toThrow(/KNOWLEDGE_WEB_ALLOW_PRIVATE_NETWORKS=true/);
      expect(checkedUrl(url, true).protocol).toBe("http:");
    }
  });

  it("reads a sitemap's pages and a sitemap index's sitemaps", () => {
    expect(
      sitemapLocations(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
         <url><loc> https://a.example/1 </loc><lastmod>2026-01-01</lastmod></url><url><loc>https://a.example/2?x=1&amp;y=2</loc></url></urlset>`,
      ),
    ).toEqual({ pages: ["https://a.example/1", "https://a.example/2?x=1&y=2"], sitemaps: [] });
    expect(
      sitemapLocations(`<sitemapindex><sitemap><loc>https://a.example/s1.xml</loc></sitemap></sitemapindex>`),
    ).toEqual({ pages: [], sitemaps: ["https://a.example/s1.xml"] });
    expect(sitemapLocations("<html>not a sitemap</html>")).toEqual({ pages: [], sitemaps: [] });
  });

  it("does not expand a hostile sitemap's nested entities (a billion laughs)", () => {
    let entities = '<!ENTITY a0 "lollollollollollollollollollol">';
    for (let level = 1; level < 10; level++) {
      entities += `<!ENTITY a${level} "${`&a${level - 1};`.repeat(10)}">`;
    }
    const bomb = `<?xml version="1.0"?><!DOCTYPE u [${entities}]><urlset><url><loc>&a9;</loc></url></urlset>`;
    const { pages } = sitemapLocations(bomb);
    expect(pages.join("").length).toBeLessThan(100);
  });

  it("makes a page's document: HTML as Markdown without scripts or furniture, text as it is", async () => {
    const bytes = (text: string) => new TextEncoder().encode(text);
    const page = await pageDocument(
      new URL("https://a.example/guide"),
      "text/html; charset=utf-8",
      bytes(`<html><head><title>Guide &amp; more</title><style>p{}</style></head><body><nav>Menu</nav>
       <h2>Install</h2><p>Run <a href="/x">the installer</a> <img src="a.png" alt="diagram">.</p><script>evil()</script></body></html>`),
      "everyone",
    );
    expect(page).toEqual({
      id: "https://a.example/guide",
      uri: "https://a.example/guide",
      title: "Guide & more",
      text: "## Install\n\nRun the installer diagram.",
      readers: "everyone",
    });
    expect(
      await pageDocument(
        new URL("https://a.example/notes/today.txt"),
        "text/plain",
        bytes("a < b"),
        "everyone",
      ),
    ).toMatchObject({ title: "today.txt", text: "a < b" });
    expect(
      await pageDocument(new URL("https://a.example/x"), "", bytes("<p>untyped</p>"), "everyone"),
    ).toMatchObject({
      text: "untyped",
    });
    expect(
      await pageDocument(new URL("https://a.example/logo.png"), "image/png", bytes("PNG"), "everyone"),
    ).toBeUndefined();
  });

  it("keeps a Confluence body's content (HTML fragments keep nav-like tags, which may be content there)", () => {
    expect(htmlToMarkdown("<h1>Runbook</h1><ul><li>one</li></ul><script>x()</script>")).toBe(
      "# Runbook\n\n-   one",
    );
    expect(htmlTitle("<title>\n A  &lt;b&gt; </title>")).toBe("A <b>");
    expect(htmlTitle("<p>none</p>")).toBeUndefined();
  });
});
