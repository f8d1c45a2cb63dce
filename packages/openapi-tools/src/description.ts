import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import $RefParser from "@apidevtools/json-schema-ref-parser";
import { maskUrlSecrets, SwitchboardError } from "@switchboard/common";
import { markReference } from "@switchboard/common/openapi-schema";
import { parse as parseYaml } from "yaml";

/** A JSON object as a description gives it. */
export type JsonObject = Record<string, unknown>;

/** A description read: as given (OpenAPI 3), and with its `$ref`s resolved. */
export interface Description {
  /** How messages name it: what the caller said, else the file's name or the URL. */
  label: string;
  /** OpenAPI 3 as given (a Swagger 2 description converted), its `$ref`s kept. */
  document: JsonObject;
  /**
   * The same with its `$ref`s resolved (circular ones left as `$ref`), each resolved schema marked with
   * the `$ref` it came from (markReference: a discriminator's mapping names schemas by it).
   */
  resolved: JsonObject;
  /** The Swagger version it was converted from (`"2.0"`), when it was. */
  convertedFrom?: string;
  /** The URL it was fetched from, against which a relative server URL is read. */
  url?: string;
}

const FETCH_TIMEOUT_MS = 30_000;

/** The messages of fetch and json-schema-ref-parser may quote a URL: its secrets are masked. */
function fail(label: string, message: string): never {
  throw new SwitchboardError("openapi.description", "user", `${label}: ${maskUrlSecrets(message)}`);
}

function parse(label: string, text: string): JsonObject {
  let parsed: unknown;
  try {
    parsed = /^\s*\{/.test(text) ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    return fail(
      label,
      `is neither JSON nor YAML (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    return fail(label, "is not an OpenAPI description.");
  return parsed as JsonObject;
}

async function fetchText(label: string, url: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: "application/json, application/yaml, text/yaml, */*" },
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return fail(label, `cannot be fetched (${cause?.code ?? cause?.message ?? String(error)}).`);
  }
  if (!response.ok) return fail(label, `cannot be fetched (HTTP ${response.status}).`);
  return response.text();
}

/**
 * Where a description's `$ref`s may lead: where the description is. A file's to files (beside it or
 * elsewhere on this machine, the operator's own); a URL's to the same origin, with no redirect (a
 * remote description must make this process read neither its files nor another host, such as a
 * private address); an object's within itself.
 */
function referencesFrom(source: string | JsonObject) {
  if (typeof source !== "string") return { external: false };
  if (!/^https?:\/\//i.test(source)) return { http: false as const };
  const origin = new URL(source).origin;
  return {
    file: false as const,
    http: {
      redirects: 0,
      canRead: (file: { url: string }) => URL.canParse(file.url) && new URL(file.url).origin === origin,
    },
  };
}

/**
 * Reads an OpenAPI description: a file (JSON or YAML), an http(s) URL, or an object. Swagger 2 is
 * converted to OpenAPI 3 (swagger2openapi, as the fakes convert vendors' descriptions); `$ref`s are
 * resolved on a copy (json-schema-ref-parser), only where the description is (referencesFrom).
 */
export async function readDescription(
  source: string | JsonObject,
  options: { label?: string } = {},
): Promise<Description> {
  const isUrl = typeof source === "string" && /^https?:\/\//i.test(source);
  const label =
    options.label ??
    (typeof source === "string"
      ? `OpenAPI description ${isUrl ? maskUrlSecrets(source) : basename(source)}`
      : "The OpenAPI description");
  let document: JsonObject;
  if (typeof source !== "string") document = structuredClone(source);
  else if (isUrl) document = parse(label, await fetchText(label, source));
  else {
    let text: string;
    try {
      text = await readFile(source, "utf8");
    } catch (error) {
      return fail(label, `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}).`);
    }
    document = parse(label, text);
  }

  let convertedFrom: string | undefined;
  if (typeof document.swagger === "string") {
    convertedFrom = document.swagger;
    if (!convertedFrom.startsWith("2."))
      fail(label, `is Swagger ${convertedFrom}: give OpenAPI 3 or Swagger 2.`);
    const { convertObj } = await import("swagger2openapi");
    try {
      const converted = await convertObj(document as unknown as Parameters<typeof convertObj>[0], {
        patch: true,
        warnOnly: true,
      });
      document = converted.openapi as unknown as JsonObject;
    } catch (error) {
      fail(
        label,
        `is Swagger 2 that cannot be converted to OpenAPI 3 (${error instanceof Error ? error.message : String(error)}).`,
      );
    }
  }
  if (typeof document.openapi !== "string" || !document.openapi.startsWith("3."))
    fail(label, "has no `openapi: 3.x` field: give an OpenAPI 3.0 or 3.1 description.");

  let resolved: JsonObject;
  try {
    resolved = (await $RefParser.dereference(
      typeof source === "string" ? source : "",
      structuredClone(document),
      {
        resolve: referencesFrom(source),
        dereference: { circular: "ignore", onDereference: markReference },
        timeoutMs: FETCH_TIMEOUT_MS,
      },
    )) as JsonObject;
  } catch (error) {
    return fail(
      label,
      `has a $ref that cannot be resolved (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  return {
    label,
    document,
    resolved,
    ...(convertedFrom ? { convertedFrom } : {}),
    ...(isUrl ? { url: source } : {}),
  };
}
