import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FileTransaction } from "./file-transaction.js";

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function fixture() {
  const root = mkdtempSync(join(tmpdir(), "create-agent-tx-"));
  roots.push(root);
  const staged = join(root, "staged");
  mkdirSync(staged);
  writeFileSync(join(staged, "a.txt"), "new package");
  writeFileSync(join(root, "compose.yaml"), "before");
  mkdirSync(join(root, "old"));
  writeFileSync(join(root, "old", "b.txt"), "old package");
  return { root, staged };
}

describe("FileTransaction", () => {
  it("rolls every step back when a later one fails, leaving no temp files", () => {
    const { root, staged } = fixture();
    const transaction = new FileTransaction();
    transaction.addDirectory(staged, join(root, "added"));
    transaction.removeDirectory(join(root, "old"));
    transaction.writeFile(join(root, "compose.yaml"), "after");
    expect(() => transaction.writeFile(join(root, "missing-folder", "x.env"), "x")).toThrow();
    transaction.rollback();
    expect(readdirSync(root).sort()).toEqual(["compose.yaml", "old", "staged"]);
    expect(readFileSync(join(root, "compose.yaml"), "utf8")).toBe("before");
    expect(readFileSync(join(root, "old", "b.txt"), "utf8")).toBe("old package");
  });

  it("commits: the new folder stays, the removed one is gone", () => {
    const { root, staged } = fixture();
    const transaction = new FileTransaction();
    transaction.addDirectory(staged, join(root, "added"));
    transaction.removeDirectory(join(root, "old"));
    transaction.commit();
    expect(readdirSync(root).sort()).toEqual(["added", "compose.yaml", "staged"]);
    expect(existsSync(join(root, "added", "a.txt"))).toBe(true);
  });

  it("refuses to replace a folder that appeared meanwhile", () => {
    const { root, staged } = fixture();
    expect(() => new FileTransaction().addDirectory(staged, join(root, "old"))).toThrow(/appeared/);
  });
});
