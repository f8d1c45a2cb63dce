import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpStatusError, requestJson } from "../src/vendor-client/http-json.js";

interface Echo {
  contentType: string | undefined;
  cookie: string | undefined;
  body: string;
}

describe("requestJson's bodies, cookies and answer size, against a real server", () => {
  let server: Server;
  let url: string;
  const seen: string[] = [];

  beforeAll(async () => {
    server = createServer(async (req: IncomingMessage, res) => {
      seen.push(`${req.method} ${req.url}`);
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      if (req.url === "/huge") {
        // Streamed without a length: the limit holds while reading, not only on Content-Length.
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"items":"');
        for (let i = 0; i < 64; i++) res.write("x".repeat(16 * 1024));
        res.end('"}');
        return;
      }
      if (req.url === "/refused") {
        res.writeHead(422, { "content-type": "application/json" });
        res.end(JSON.stringify({ message: "name is taken", padding: "y".repeat(200_000) }));
        return;
      }
      const echo: Echo = {
        contentType: req.headers["content-type"],
        cookie: req.headers.cookie,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(echo));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("sends a form, a multipart body (its boundary in the type) and JSON, each with its media type", async () => {
    const form = await requestJson<Echo>({
      method: "POST",
      url: `${url}/echo`,
      form: new URLSearchParams([
        ["a", "1 2"],
        ["a", "3"],
      ]),
    });
    expect(form).toMatchObject({ contentType: "application/x-www-form-urlencoded", body: "a=1+2&a=3" });

    const parts = new FormData();
    parts.append("comment", "hi");
    parts.append("file", new Blob(["kind: x\n"], { type: "text/yaml" }), "file.yaml");
    const multipart = await requestJson<Echo>({ method: "POST", url: `${url}/echo`, form: parts });
    const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(multipart.contentType ?? "")?.[1];
    expect(boundary).toBeTruthy();
    expect(multipart.body).toContain('Content-Disposition: form-data; name="file"; filename="file.yaml"');
    expect(multipart.body).toContain("Content-Type: text/yaml\r\n\r\nkind: x\n");

    const json = await requestJson<Echo>({ method: "POST", url: `${url}/echo`, body: { a: 1 } });
    expect(json).toMatchObject({ contentType: "application/json", body: '{"a":1}' });
  });

  it("sends cookies in one header; refuses one whose value would start another cookie or header, sending nothing", async () => {
    const sent = await requestJson<Echo>({
      url: `${url}/echo`,
      cookies: [
        ["session", "abc%3B"],
        ["prefs", "dark"],
      ],
    });
    expect(sent.cookie).toBe("session=abc%3B; prefs=dark");
    const before = seen.length;
    for (const cookie of [
      ["session", "x; admin=1"],
      ["session", "x\r\nX-Evil: 1"],
      ["bad name", "x"],
    ] as Array<[string, string]>) {
      await expect(requestJson({ url: `${url}/echo`, cookies: [cookie] })).rejects.toThrow(/cannot be sent/);
    }
    expect(seen.length).toBe(before);
  });

  it("reads no more than maxAnswerBytes of an answer; a refusal's words, not its whole body", async () => {
    await expect(requestJson({ url: `${url}/huge`, maxAnswerBytes: 256 * 1024 })).rejects.toThrow(
      "The answer to GET /huge is larger than 262144 bytes, more than is read: ask for less (a filter or a smaller page).",
    );
    expect(await requestJson<{ items: string }>({ url: `${url}/huge` })).toMatchObject({
      items: expect.stringMatching(/^x+$/),
    });
    const refused = await requestJson({ method: "POST", url: `${url}/refused`, body: {} }).catch((e) => e);
    expect(refused).toBeInstanceOf(HttpStatusError);
    expect(refused).toMatchObject({ status: 422 });
    expect((refused as HttpStatusError).detail).toBe("name is taken");
  });
});
