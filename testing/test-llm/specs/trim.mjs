// Trims a provider's OpenAPI document (JSON) to one operation: its path item, and every schema under
// components.schemas the operation references, directly or through other schemas, copied unchanged.
// node specs/trim.mjs <openapi.json> <path> <out.json> <source note>
import { readFileSync, writeFileSync } from "node:fs";

const [input, path, output, source] = process.argv.slice(2);
const document = JSON.parse(readFileSync(input, "utf8"));
const schemas = document.components?.schemas ?? {};

function references(value, found) {
  if (Array.isArray(value)) for (const item of value) references(item, found);
  else if (value && typeof value === "object")
    for (const [key, inner] of Object.entries(value)) {
      if (key === "$ref" && typeof inner === "string") found.add(inner);
      else references(inner, found);
    }
  return found;
}

const kept = new Set();
const todo = [...references(document.paths[path], new Set())];
while (todo.length > 0) {
  const ref = todo.pop();
  const match = /^#\/components\/schemas\/(.+)$/.exec(ref);
  if (!match) continue;
  if (kept.has(match[1])) continue;
  if (!schemas[match[1]]) throw new Error(`${ref} is not in the document`);
  kept.add(match[1]);
  todo.push(...references(schemas[match[1]], new Set()));
}

const trimmed = {
  "x-trimmed": `${source}: only ${path} and the ${kept.size} schemas it references, unchanged (specs/trim.mjs)`,
  openapi: document.openapi,
  info: document.info,
  paths: { [path]: document.paths[path] },
  components: { schemas: Object.fromEntries([...kept].sort().map((name) => [name, schemas[name]])) },
};
writeFileSync(output, `${JSON.stringify(trimmed, null, 2)}\n`);
process.stdout.write(`${output}: ${kept.size} schemas\n`);
