import { describe, expect, it } from "vitest";
import { uploadKind } from "./upload.js";

describe("uploaded files' kinds", () => {
  it("goes by the media type, else the extension", () => {
    expect(uploadKind("a.bin", "application/pdf")).toBe("pdf");
    expect(uploadKind("report.PDF", "application/octet-stream")).toBe("pdf");
    expect(uploadKind("a", "text/html; charset=utf-8")).toBe("html");
    expect(uploadKind("page.htm", "")).toBe("html");
    expect(uploadKind("README.md", "text/plain")).toBe("markdown");
    expect(uploadKind("notes", "text/plain")).toBe("text");
    expect(uploadKind("notes.txt", "")).toBe("text");
    expect(uploadKind("tool.exe", "application/octet-stream")).toBeUndefined();
    expect(uploadKind("image.png", "image/png")).toBeUndefined();
  });
});
