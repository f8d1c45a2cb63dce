/**
 * Parameter values as OpenAPI's `style` and `explode` lay them out (OpenAPI 3.1, "Style Values"):
 * `matrix`, `label`, `simple` for path; `form`, `spaceDelimited`, `pipeDelimited`, `deepObject` for
 * the query (and form bodies); `simple` for headers; `form` for cookies. Written here rather than taken
 * from a client library: openapi-fetch exports query and path serializers but none for headers or
 * cookies, and leaves names unencoded; these are small and tested against the specification's table.
 */

export type Style =
  | "matrix"
  | "label"
  | "simple"
  | "form"
  | "spaceDelimited"
  | "pipeDelimited"
  | "deepObject";

const STYLES = new Set<string>([
  "matrix",
  "label",
  "simple",
  "form",
  "spaceDelimited",
  "pipeDelimited",
  "deepObject",
]);

/** OpenAPI's defaults: form in the query and cookies, simple in the path and headers; explode only for form. */
export function styleOf(
  where: "path" | "query" | "header" | "cookie",
  style: string | undefined,
  explode: boolean | undefined,
): { style: Style; explode: boolean } {
  const chosen = (
    style && STYLES.has(style) ? style : where === "query" || where === "cookie" ? "form" : "simple"
  ) as Style;
  return { style: chosen, explode: explode ?? chosen === "form" };
}

/** One value as text: strings as they are, numbers and booleans printed, null empty, anything deeper as JSON. */
function text(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

const encode = encodeURIComponent;

function entriesOf(value: Record<string, unknown>): Array<[string, string]> {
  return Object.entries(value)
    .filter(([, item]) => item !== undefined)
    .map(([key, item]) => [key, text(item)]);
}

/**
 * A query parameter (or a form body's field) as `name=value` pairs, percent-encoded, to be joined by
 * `&`. Delimiters (`,`, `|`, `%20`) stay literal while each value's own are encoded, so `a,b` as one
 * value and `a` and `b` as two differ.
 */
export function queryPairs(name: string, value: unknown, style: Style, explode: boolean): string[] {
  const key = encode(name);
  if (Array.isArray(value)) {
    const items = value.map((item) => encode(text(item)));
    if (explode) return items.map((item) => `${key}=${item}`);
    const joiner = style === "spaceDelimited" ? "%20" : style === "pipeDelimited" ? "|" : ",";
    return [`${key}=${items.join(joiner)}`];
  }
  if (value !== null && typeof value === "object") {
    const entries = entriesOf(value as Record<string, unknown>);
    if (style === "deepObject")
      return entries.map(([field, item]) => `${key}%5B${encode(field)}%5D=${encode(item)}`);
    if (explode) return entries.map(([field, item]) => `${encode(field)}=${encode(item)}`);
    const joiner = style === "spaceDelimited" ? "%20" : style === "pipeDelimited" ? "|" : ",";
    return [`${key}=${entries.flatMap(([field, item]) => [encode(field), encode(item)]).join(joiner)}`];
  }
  return [`${key}=${encode(text(value))}`];
}

/**
 * A path parameter's text, percent-encoded (a `/`, `?` or `#` in a value stays inside its segment):
 * `simple` `3,4,5`, `label` `.3.4.5`, `matrix` `;id=3;id=4;id=5`, objects as the table lays them out.
 */
export function pathText(name: string, value: unknown, style: Style, explode: boolean): string {
  const key = encode(name);
  const prefix = style === "label" ? "." : style === "matrix" ? ";" : "";
  if (Array.isArray(value)) {
    const items = value.map((item) => encode(text(item)));
    if (style === "matrix")
      return explode ? items.map((item) => `;${key}=${item}`).join("") : `;${key}=${items.join(",")}`;
    return prefix + items.join(explode && style === "label" ? "." : ",");
  }
  if (value !== null && typeof value === "object") {
    const entries = entriesOf(value as Record<string, unknown>).map(
      ([field, item]) => [encode(field), encode(item)] as const,
    );
    if (explode) {
      const pairs = entries.map(([field, item]) => `${field}=${item}`);
      return style === "matrix"
        ? pairs.map((pair) => `;${pair}`).join("")
        : prefix + pairs.join(style === "label" ? "." : ",");
    }
    const flat = entries.flat().join(",");
    return style === "matrix" ? `;${key}=${flat}` : prefix + flat;
  }
  const one = encode(text(value));
  return style === "matrix" ? `;${key}${one === "" ? "" : `=${one}`}` : prefix + one;
}

/** A header parameter's value (`simple`): arrays and objects comma-separated, not percent-encoded. */
export function headerText(value: unknown, explode: boolean): string {
  if (Array.isArray(value)) return value.map(text).join(",");
  if (value !== null && typeof value === "object")
    return entriesOf(value as Record<string, unknown>)
      .map(([field, item]) => (explode ? `${field}=${item}` : `${field},${item}`))
      .join(",");
  return text(value);
}

/**
 * A cookie parameter (`form`) as cookie pairs, values percent-encoded (so a `;`, `,`, space or line
 * break in one is text, never a new cookie or header): an exploded array repeats the cookie, else
 * comma-separated; an exploded object is one cookie per field.
 */
export function cookiePairs(name: string, value: unknown, explode: boolean): Array<[string, string]> {
  if (Array.isArray(value)) {
    const items = value.map((item) => encode(text(item)));
    return explode ? items.map((item) => [name, item]) : [[name, items.join(",")]];
  }
  if (value !== null && typeof value === "object") {
    const entries = entriesOf(value as Record<string, unknown>);
    if (explode) return entries.map(([field, item]) => [encode(field), encode(item)]);
    return [[name, entries.flatMap(([field, item]) => [encode(field), encode(item)]).join(",")]];
  }
  return [[name, encode(text(value))]];
}
