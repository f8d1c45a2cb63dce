import formats from "ajv-formats";
import { type Document, OpenAPIBackend, type Request } from "openapi-backend";
import { openApiAnswers, withoutLargeEnums } from "./openapi-answers.js";
import type { Handler, Route, RouteContext } from "./vendor-server.js";
import { VendorHttpError } from "./vendor-server.js";

/** A fake driven by its vendor's published OpenAPI description (see vendor-spec.ts). */
export interface OpenApiRoutes {
  document: Document;
  /** Where the vendor serves the described paths, e.g. `/api/catalog`. */
  apiRoot?: string;
  /** A handler per operationId the fake implements; the description's other operations answer 501. */
  operations: Record<string, Handler>;
  /**
   * The other operations answer with the description's own example of their success answer where it
   * is valid, else one made from its schema (openapi-answers.ts), instead of 501: for a fake made from
   * any description, as `pnpm new-agent --openapi` agents' tests use.
   */
  mockOthers?: boolean;
}

/** Matches a request to one of the description's operations, with its checks. */
export type OperationMatcher = (
  method: string,
  url: URL,
  headers: RouteContext["headers"],
) => Route | undefined;

export async function openApiMatcher(vendor: string, routes: OpenApiRoutes): Promise<OperationMatcher> {
  const api = new OpenAPIBackend({
    // Dereferenced in place: the caller's copy (shared by every fake in the process) stays as loaded.
    definition: withoutLargeEnums(structuredClone(routes.document)),
    apiRoot: routes.apiRoot ?? "/",
    // The description is the vendor's, not ours to lint; validators compile on an operation's first use.
    quick: true,
    strict: false,
    ajvOpts: { strict: false, allErrors: true },
    // Formats the descriptions use (date-time, int64, byte, …) are checked too. (ajv-formats is
    // CommonJS; `.default` is the plugin under both TypeScript and Node.)
    customizeAjv: (ajv) => formats.default(ajv),
  });
  await api.init();
  // An apiKey scheme's query parameter is the credential, not one of the operation's parameters
  // (most descriptions do not declare it): the security check's (openapi-security.ts), not validated
  // as an unknown parameter here.
  const keyParameters = apiKeyQueryParameters(routes.document);
  const answers = openApiAnswers(
    routes.document,
    (operationId, status, body) => api.validateResponse(body, operationId, status).valid,
  );
  for (const operationId of Object.keys(routes.operations)) {
    if (!api.getOperation(operationId))
      throw new Error(`fake ${vendor}: the vendor's OpenAPI description has no operation ${operationId}`);
  }
  return (method, url, headers) => {
    const request: Request = {
      method,
      path: url.pathname,
      query: url.search.slice(1),
      headers: asHeaders(headers),
    };
    const operation = api.matchOperation(request);
    if (!operation?.operationId) return undefined;
    const { operationId } = operation;
    const notImplemented: Handler = () => {
      throw new VendorHttpError(
        501,
        `fake ${vendor} does not implement ${operationId} (${method} ${url.pathname})`,
      );
    };
    const mocked: Handler = () => answers.mock(operationId);
    return {
      handler: routes.operations[operationId] ?? (routes.mockOthers ? mocked : notImplemented),
      params: Object.fromEntries(
        Object.entries(api.router.parseRequest(request, operation).params).map(([k, v]) => [k, String(v)]),
      ),
      checkRequest: (ctx) => {
        const declared = new Set(
          (operation.parameters ?? []).flatMap((one) =>
            "in" in one && one.in === "query" ? [one.name] : [],
          ),
        );
        const undeclared = new Set([...keyParameters].filter((name) => !declared.has(name)));
        const query = withoutParameters(url.search.slice(1), undeclared);
        let errors: ReturnType<typeof api.validateRequest>["errors"];
        try {
          ({ errors } = api.validateRequest({ ...request, query, body: ctx.body }, operation));
        } catch {
          // A circular body schema overflows openapi-backend's compiler: the body is read by answers alone.
          errors = [{ instancePath: "/requestBody", params: {}, keyword: "", schemaPath: "", message: "" }];
        }
        const isBody = (error: { instancePath: string; params: unknown }) =>
          error.instancePath.startsWith("/requestBody") ||
          (error.params as { missingProperty?: string }).missingProperty === "requestBody";
        // A JSON body it refuses is read again as OpenAPI means it (readOnly properties are the server's).
        const body = errors?.some(isBody) ? answers.bodyProblems(operationId, ctx.body) : undefined;
        const problems = [
          ...(errors ?? [])
            .filter((error) => !body || !isBody(error))
            .map((error) => `${error.instancePath || "request"} ${error.message ?? "is invalid"}`),
          ...(body ?? []).map((problem) =>
            problem.startsWith("/") ? `/requestBody${problem}` : problem.replace(/^body\b/, "/requestBody"),
          ),
        ];
        if (problems.length > 0)
          throw new VendorHttpError(
            400,
            `${method} ${url.pathname} does not match ${vendor}'s API (${operationId})`,
            problems,
          );
      },
      checkAnswer: (result) => {
        if (result.body === undefined || result.status >= 300) return;
        const problems = answers.answerProblems(operationId, result.status, result.body);
        if (problems.length > 0)
          throw new Error(
            `fake ${vendor}'s answer to ${operationId} breaks the vendor's OpenAPI description: ${problems.join("; ")}`,
          );
      },
    };
  };
}

function apiKeyQueryParameters(document: Document): Set<string> {
  const schemes = Object.values(document.components?.securitySchemes ?? {}) as unknown as Array<
    Record<string, unknown>
  >;
  return new Set(
    schemes
      .filter((scheme) => scheme.type === "apiKey" && scheme.in === "query")
      .map((scheme) => String(scheme.name)),
  );
}

/** The query as sent, less the named parameters. */
function withoutParameters(query: string, names: Set<string>): string {
  if (names.size === 0 || query === "") return query;
  const name = (pair: string) => decodeURIComponent((pair.split("=")[0] ?? "").replace(/\+/g, " "));
  return query
    .split("&")
    .filter((pair) => !names.has(name(pair)))
    .join("&");
}

function asHeaders(headers: RouteContext["headers"]): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(headers).filter((entry): entry is [string, string | string[]] => entry[1] !== undefined),
  );
}
