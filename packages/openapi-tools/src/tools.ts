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
import { catalogTools, DEFAULT_MAX_TOOLS } from "./catalog.js";
import { type JsonObject, readDescription } from "./description.js";
import { OAuthTokens } from "./oauth2.js";
import { type Operation, operationsOf } from "./operations.js";
import { pagingHint } from "./paging.js";
import { answerText, confirmationOf, requestOf } from "./request.js";
import { argumentsOf } from "./schema.js";
import { baseUrlOf } from "./servers.js";
import { toolListTokens } from "./tool-list-tokens.js";

export interface OpenApiToolsOptions {
  /** The description: a file path, an http(s) URL, or the description itself. */
  document: string | JsonObject;
  /** Where the API is; default: the description's first server (made absolute against its URL). */
  baseUrl?: string;
  /** Where `auth`'s `${VAR}` references are read, at each call. */
  env: NodeJS.ProcessEnv;
  /**
   * Security scheme name → its credential as `${VAR}`: apiKey → the key, http bearer → the token,
   * http basic → `${USER}:${PASSWORD}`, oauth2 client credentials → `${CLIENT_ID}:${CLIENT_SECRET}`.
   */
  auth?: Record<string, string>;
  /** Values of the first server's variables (default: each variable's default). */
  serverVariables?: Record<string, string>;
  /**
   * OAuth2 token endpoints by scheme, instead of the description's `tokenUrl`: needed when a
   * description fetched from a URL names one off the API's origin (see auth.ts, tokenUrlOf).
   */
  tokenUrls?: Record<string, string>;
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
  /** Only the operations with one of these tags; an unknown tag is an error naming the others. */
  tags?: string[];
  /** Only these operations (tool names without the prefix, or operationIds); unknown ones are an error naming the others. */
  operations?: string[];
  /**
   * The most tools the model is offered one per operation (default 40, DEFAULT_MAX_TOOLS). More
   * operations than this are offered as two tools, `<prefix>find_operations` and
   * `<prefix>call_operation`, which reach every chosen operation's tool (catalog.ts).
   */
  maxTools?: number;
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
  /** The tokens (cl100k) the tools `tools(options)` offers the model cost a model turn, as their definitions are sent. */
  toolListTokens(options?: ToolsOptions): number;
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
  const baseUrl = baseUrlOf(label, resolved, {
    configured: options.baseUrl,
    from: description.url,
    ...(options.serverVariables ? { serverVariables: options.serverVariables } : {}),
  });
  const configured = readCredentials(label, resolved, options.auth ?? {}, {
    baseUrl,
    ...(description.url ? { descriptionUrl: description.url } : {}),
    ...(options.tokenUrls ? { tokenUrls: options.tokenUrls } : {}),
  });
  const tokens = new OAuthTokens({
    variables: (scheme) => `the variables in auth.${scheme} of ${label}`,
  });
  const { operations, skipped } = operationsOf(resolved);
  if (operations.length === 0)
    throw new SwitchboardError(
      "openapi.description",
      "user",
      `${label} describes no operation Switchboard can call (bodies in JSON, form or multipart, or none)${skipped.length > 0 ? `; left out: ${skipped.slice(0, 5).join("; ")}` : ""}.`,
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
      // The OAuth2 tokens held now too: an API's error may echo the one it refused.
      secrets: ({ secrets }) => [...secrets, ...tokens.current()],
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
    const chosen = credentialsFor(operation.security, configured);
    const context = { api: label, tool: operation.tool, tokens };
    const request = async () =>
      requestOf(operation, args, baseUrl, await fillCredentials(chosen, options.env, context));
    const oauth = chosen.filter(({ credential }) => credential.send.in === "oauth2");
    return answerText(
      await client.call(ctx, async ({ call }) => {
        try {
          return await call(await request());
        } catch (error) {
          // A token refused (revoked, or expired before its time): a new one, asked for once.
          if (!(error instanceof HttpStatusError && error.status === 401) || oauth.length === 0) throw error;
          for (const { credential } of oauth) tokens.forget(credential.scheme);
          return call(await request());
        }
      }),
    );
  };

  return {
    title,
    baseUrl: baseUrl.href,
    names: operations.map(({ tool }) => tool),
    tools: (toolOptions = {}) => makeTools(operations, call, api, toolOptions),
    toolListTokens: (toolOptions = {}) => toolListTokens(makeTools(operations, call, api, toolOptions)),
  };
}

/** One call of an operation, with the tool call's context. */
type Call = (operation: Operation, args: Record<string, unknown>, ctx: ToolCallContext) => Promise<string>;

function makeTools(
  operations: Operation[],
  call: Call,
  api: string,
  { prefix = "", only, asks, tags, operations: named, maxTools = DEFAULT_MAX_TOOLS }: ToolsOptions,
): AgentTool[] {
  if (!Number.isInteger(maxTools) || maxTools < 1)
    throw new SwitchboardError(
      "openapi.tools",
      "user",
      `maxTools ${maxTools} for ${api}: give a whole number of tools, 1 or more (default ${DEFAULT_MAX_TOOLS}).`,
    );
  const chosen = chosenOperations(operations, api, { only, tags, operations: named });
  const taken = new Set<string>();
  const tools = chosen.map((operation) => {
    const name = portableToolName(`${prefix}${operation.tool}`, taken);
    taken.add(name);
    return operationTool(operation, name, call, asks?.(operation.tool) ?? !operation.read);
  });
  if (tools.length <= maxTools) return tools;
  // Past the bound the model is offered the catalog; each operation's tool runs through it.
  const hidden = tools.map((tool) => ({ ...tool, offered: false }));
  const entries = chosen.map((operation, index) => ({ operation, tool: hidden[index] as AgentTool }));
  return [...hidden, ...catalogTools(entries, { prefix, api, taken })];
}

/**
 * The operations `only`, `tags` and `operations` leave (all of them when none is given). A name or
 * tag the description lacks is an error naming the ones it has.
 */
function chosenOperations(
  operations: Operation[],
  api: string,
  { only, tags, operations: named }: Pick<ToolsOptions, "only" | "tags" | "operations">,
): Operation[] {
  const known = new Set(operations.map(({ tool }) => tool));
  const unknownTools = (only ?? []).filter((name) => !known.has(name));
  if (unknownTools.length > 0)
    throw new SwitchboardError(
      "openapi.tools",
      "user",
      `${unknownTools.join(", ")}: not an operation of ${api}; its tools are: ${[...known].join(", ")}.`,
    );
  const knownTags = [...new Set(operations.flatMap((operation) => operation.tags))];
  const unknownTags = (tags ?? []).filter((tag) => !knownTags.includes(tag));
  if (unknownTags.length > 0)
    throw new SwitchboardError(
      "openapi.tools",
      "user",
      `${unknownTags.join(", ")}: not a tag of ${api}; its tags are: ${knownTags.join(", ") || "none (list operations instead)"}.`,
    );
  const isNamed = (operation: Operation, name: string) =>
    name === operation.tool || name === operation.operationId;
  const unknownOperations = (named ?? []).filter(
    (name) => !operations.some((operation) => isNamed(operation, name)),
  );
  if (unknownOperations.length > 0)
    throw new SwitchboardError(
      "openapi.tools",
      "user",
      `${unknownOperations.join(", ")}: not an operation of ${api}; its operations are: ${[...known].join(", ")}.`,
    );
  const chosen = operations.filter(
    (operation) =>
      (!only || only.includes(operation.tool)) &&
      (!tags || operation.tags.some((tag) => tags.includes(tag))) &&
      (!named || named.some((name) => isNamed(operation, name))),
  );
  if (chosen.length === 0)
    throw new SwitchboardError(
      "openapi.tools",
      "user",
      `No operation of ${api} is both in the tags and among the operations chosen: widen tags or operations.`,
    );
  return chosen;
}

/** One operation as a tool of its own: a read runs, a change (`asksFirst`) asks the user first. */
function operationTool(operation: Operation, name: string, call: Call, asksFirst: boolean): AgentTool {
  const resources = operation.resources;
  const tool = defineTool({
    name,
    description: `${operation.about} (${operation.method} ${operation.path})${pagingHint(operation)}`,
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
}
