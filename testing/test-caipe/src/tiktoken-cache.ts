import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import cl100k from "js-tiktoken/ranks/cl100k_base";

/** The URL tiktoken (Python) loads cl100k_base from, and the SHA-256 its source expects of it. */
const CL100K_URL = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken";
const CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7";

/**
 * Writes cl100k_base where Python's tiktoken looks before downloading it (`TIKTOKEN_CACHE_DIR`, file
 * named by the SHA-1 of the blob URL): CAIPE's agents load it at start, and there is no internet here.
 * The ranks come from js-tiktoken, which ships the same table in a compressed form; the file is
 * checked against the hash tiktoken checks, so a wrong table fails here and not inside CAIPE.
 */
export function writeTiktokenCache(dir: string): string {
  const file = join(dir, createHash("sha1").update(CL100K_URL).digest("hex"));
  if (existsSync(file) && sha256(readFileSync(file)) === CL100K_SHA256) return dir;
  const lines: string[] = [];
  for (const line of cl100k.bpe_ranks.split("\n")) {
    if (!line) continue;
    // Each line: "! <first rank> <base64 token> <base64 token> …", ranks consecutive.
    const [, offset = "0", ...tokens] = line.split(" ");
    const first = Number.parseInt(offset, 10);
    tokens.forEach((token, index) => {
      lines.push(`${token} ${first + index}`);
    });
  }
  const contents = Buffer.from(`${lines.join("\n")}\n`);
  const actual = sha256(contents);
  if (actual !== CL100K_SHA256) {
    throw new Error(
      `cl100k_base rebuilt from js-tiktoken has SHA-256 ${actual}, tiktoken expects ${CL100K_SHA256}.`,
    );
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${file}.part`, contents);
  renameSync(`${file}.part`, file);
  return dir;
}

function sha256(data: Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}
