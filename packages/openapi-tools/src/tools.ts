import {
  type AgentTool,
  defineTool,
  HttpStatusError,
  requestJson,
  type ToolCallContext,
  VendorClient,
} from "@switchboard/agent-runtime";
import { type Logger, SwitchboardError } from "@switchboard/common";
import { portableToolName } from "@switchboard/common/portable-schema";
import { credentialsFor, fillCredentials, readCredentials, secretsOf } from "./auth.js";
import { type JsonObject, readDescription } from "./description.js";
import { type Operation, operationsOf } from "./operations.js";
import { answerText, confirmationOf, requestOf } from "./request.js";
import { argumentsOf } from "./schema.js";

export interface OpenApiToolsOptions {
  /** The description: a file path, an http(s) URL, or the description itself. */
  document: string | JsonObject;
  /** Where the API is; default: the description's first server (made absolute against its URL). */
  baseUrl?: string;
  /** Where `auth`'s `${VAR}` references are read, at each call. */
  env: NodeJS.ProcessEnv;
  /** Security scheme name → its credential as `${VAR}` (basic: `${USER}:${PASSWORD}`). */
  auth?: Record<string, string>;
  logger: Logger;
  /** How messages name the source (e.g. `OpenAPI source "petstore"`); default: the file or URL. */
  label?: string;
}

export interface ToolsOptions {
  /** Put before every tool's name (e.g. CAIPE's `<server_id>_`). */
  prefix?: string;
  /** Only these tools (by name without the prefix); unknown names are an error naming the others. */
  only?: string[];
  /** Overrides whether a tool asks first (by name without the prefix); undefined keeps the default. */
  asks?: (tool: string) => boolean | undefined;
}

export interface OpenApiTools {
  /** The description's title. */
  title: string;
  /** The API's base URL as called. */
  baseUrl: string;
  /** Every operation's tool name (without a prefix). */
  names: string[];
  /** The operations as tools: reads run, the others ask first (unless `asks` says otherwise). */
  tools(options?: ToolsOptions): AgentTool[];
}

/** The base URL: the configured one, else the description's first server (variables at their defaults). */
function baseUrlOf(
  label: string,
  resolved: JsonObject,
  configured: string | undefined,
  from: string | undefined,
): URL {
  const server = (
    (resolved.servers ?? []) as Array<{ url?: string; variables?: Record<string, { default?: string }> }>
  )[0];
  const described = server?.url?.replace(
    /\{([^}]+)\}/g,
    (whole, name: string) => server.variables?.[name]?.default ?? whole,
  );
  const text = configured ?? described;
  let url: URL | undefined;
  try {
    url = text ? new URL(text, configured ? undefined : from) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash)
    throw new SwitchboardError(
      "openapi.base-url",
      "user",
      configured
        ? `${label}: base URL ${JSON.stringify(configured)} is not an http(s) URL without credentials, query or fragment: set base_url to the API's address.`
        : `${label} names no absolute server${described ? ` (its first server is ${JSON.stringify(described)})` : ""}: set base_url to the API's address.`,
    );
  return url;
}

/**
 * An OpenAPI 3.0/3.1 (or Swagger 2) description as agent tools, interpreted at run time: one tool
 * per operation (the same reading `pnpm new-agent --openapi` generates code from), calling the API at
 * the configured base URL only, with the credentials its security schemes take from the env at each
 * call. Reads (GET, HEAD) run without asking; every other method asks the user first.
 */
export async function openApiTools(options: OpenApiToolsOptions): Promise<OpenApiTools> {
  const description = await readDescription(options.document, options.label ? { label: options.label } : {});
  const { label, resolved } = description;
  const baseUrl = baseUrlOf(label, resolved, options.baseUrl, description.url);
  const configured = readCredentials(label, resolved, options.auth ?? {});
  const { operations, skipped } = operationsOf(resolved);
  if (operations.length === 0)
    throw new SwitchboardError(
      "openapi.description",
      "user",
      `${label} describes no operation with a JSON or no body.`,
    );
  const title = String((resolved.info as { title?: unknown } | undefined)?.title ?? label);
  const api = `the ${title} API`;
  options.logger.info(
    {
      openapi: label,
      baseUrl: baseUrl.href,
      operations: operations.length,
      ...(skipped.length > 0 ? { skipped } : {}),
      credentials: [...configured.keys()],
    },
    "OpenAPI description read",
  );

  const variables = [...new Set([...configured.values()].flatMap((credential) => credential.variables))];
  // The runtime's vendor client: each failure one message naming the status and the vendor's words,
  // with no credential in it.
  const client = new VendorClient(
    {
      vendor: api,
      code: "openapi",
      settings: (env) => ({ url: baseUrl.href, secrets: secretsOf(configured, env) }),
      connect: () => ({ call: requestJson }),
      names: ({ url }) => ({
        url,
        // The variables themselves where auth names them: what the user sets to fix a refusal.
        credentials:
          variables.length > 0
            ? `${variables.join(" and ")} (auth of ${label})`
            : `the variables in auth of ${label}`,
        address: `the base URL of ${label}`,
      }),
      secrets: ({ secrets }) => secrets,
      describe: (failure, _settings, error) => {
        if (!failure.status || failure.status < 300 || failure.status >= 400) return undefined;
        const location = error instanceof HttpStatusError ? error.headers.get("location") : null;
        const where = location ? ` to ${new URL(location, baseUrl).origin}` : "";
        return new SwitchboardError(
          "openapi.redirect",
          "third-party",
          `The ${title} API redirected ${failure.operation ?? "the call"}${where} (HTTP ${failure.status}): redirects are not followed, so credentials reach the base URL only; set base_url to where the API answers.`,
        );
      },
    },
    options.env,
  );

  const call: Call = async (operation, args, ctx) => {
    const credentials = credentialsFor(operation.security, configured);
    const sent = fillCredentials(credentials, options.env, { api: label, tool: operation.tool });
    const request = requestOf(operation, args, baseUrl, sent);
    return answerText(await client.call(ctx, ({ call }) => call(request)));
  };

  return {
    title,
    baseUrl: baseUrl.href,
    names: operations.map(({ tool }) => tool),
    tools: (toolOptions = {}) => makeTools(operations, call, api, toolOptions),
  };
}

/** One call of an operation, with the tool call's context. */
type Call = (operation: Operation, args: Record<string, unknown>, ctx: ToolCallContext) => Promise<string>;

function makeTools(
  operations: Operation[],
  call: Call,
  api: string,
  { prefix = "", only, asks }: ToolsOptions,
): AgentTool[] {
  const known = new Set(operations.map(({ tool }) => tool));
  const unknown = (only ?? []).filter((name) => !known.has(name));
  if (unknown.length > 0)
    throw new SwitchboardError(
      "openapi.tools",
      "user",
      `${unknown.join(", ")}: not an operation of ${api}; its tools are: ${[...known].join(", ")}.`,
    );
  const chosen = only ? operations.filter(({ tool }) => only.includes(tool)) : operations;
  const taken = new Set<string>();
  return chosen.map((operation) => {
    const name = portableToolName(`${prefix}${operation.tool}`, taken);
    taken.add(name);
    const resources = operation.resources;
    const asksFirst = asks?.(operation.tool) ?? !operation.read;
    const tool = defineTool({
      name,
      description: `${operation.about} (${operation.method} ${operation.path})`,
      schema: argumentsOf(operation),
      ...(asksFirst ? { confirm: (args: Record<string, unknown>) => confirmationOf(operation, args) } : {}),
      ...(resources.length > 0
        ? {
            resource: (args: Record<string, unknown>) =>
              Object.fromEntries(resources.map(({ kind, parameter }) => [kind, String(args[parameter])])),
          }
        : {}),
      run: (args, ctx) => call(operation, args, ctx),
    });
    // Arguments the call refuses anyway (a path parameter of `..`) ask nothing: the call fails, naming why.
    const { confirm } = tool;
    if (!confirm) return tool;
    return {
      ...tool,
      confirm: (args) => {
        try {
          return confirm(args);
        } catch {
          return undefined;
        }
      },
    };
  });
}
