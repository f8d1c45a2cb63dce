import {
  DEFAULT_MAX_TOOLS,
  type JsonObject,
  type Operation,
  type SecurityRequirement,
} from "@switchboard/openapi-tools/reading";
import type { CredentialSetting, OpenApiSource } from "./openapi-source.js";
import type { TemplateValues } from "./templates.js";

/** Text from a description on one line, for Markdown and comments (its own words, never code). */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Text in a Markdown table cell or line: one line, `|` escaped, backticks and HTML neutral. */
function markdown(text: string): string {
  return oneLine(text).replace(/[\\`*_[\]<>|]/g, (char) => `\\${char}`);
}

/** Text as a Markdown code span in a table cell: no backtick can close it, `|` escaped (GFM). */
function code(text: string): string {
  return `\`${oneLine(text).replace(/`/g, "'").replace(/\|/g, "\\|")}\``;
}

/** The response a fake made from the description answers an operation with: its first 2xx. */
function successOf(resolved: JsonObject, operation: Operation): { json: boolean } | undefined {
  const paths = (resolved.paths ?? {}) as Record<string, Record<string, { responses?: JsonObject }>>;
  const responses = paths[operation.path]?.[operation.method.toLowerCase()]?.responses ?? {};
  const status = Object.keys(responses)
    .filter((code) => /^2(\d\d|XX)$/i.test(code))
    .sort()[0];
  if (!status) return undefined;
  const content = Object.keys(((responses[status] as JsonObject | undefined)?.content ?? {}) as JsonObject);
  return { json: content.some((type) => /^application\/([\w.+-]+\+)?json\b/.test(type)) };
}

/** Whether the credentials the agent sends satisfy the operation's security (or it needs none). */
function satisfiable(operation: Operation, schemes: Set<string>): boolean {
  const requirements: SecurityRequirement[] = operation.security;
  return (
    requirements.length === 0 ||
    requirements.some((one) => Object.keys(one).every((name) => schemes.has(name)))
  );
}

function needsCredential(operation: Operation, schemes: Set<string>): boolean {
  const requirements: SecurityRequirement[] = operation.security;
  return (
    requirements.length > 0 &&
    !requirements.some((one) => Object.keys(one).length === 0) &&
    requirements.some((one) => Object.keys(one).some((name) => schemes.has(name)))
  );
}

const required = (operation: Operation) =>
  operation.parameters.filter((parameter) => parameter.required).length + (operation.body?.required ? 1 : 0);

/**
 * The operations the generated test calls: ones a fake made from the description can answer (a
 * success answer, JSON first; no file upload) with the credentials the agent sends, fewest required
 * arguments first. A read and a change (ones that send a credential, where there are), a read that
 * needs a credential (to leave it unset), and a read that declares `security: []` (to see nothing sent).
 */
export function testedOperations(source: OpenApiSource, chosen: Operation[]) {
  const schemes = new Set(source.credentials.map(({ scheme }) => scheme));
  const answerable = chosen
    .filter((operation) => satisfiable(operation, schemes))
    .filter((operation) => !/^multipart\//.test(operation.body?.mediaType ?? ""))
    .map((operation) => ({ operation, success: successOf(source.resolved, operation) }))
    .filter(({ success }) => success !== undefined)
    .sort(
      (a, b) =>
        Number(b.success?.json) - Number(a.success?.json) || required(a.operation) - required(b.operation),
    )
    .map(({ operation }) => operation);
  const reads = answerable.filter((operation) => operation.method === "GET");
  const read = reads.find((operation) => needsCredential(operation, schemes)) ?? reads[0];
  const changes = answerable.filter((operation) => !operation.read);
  return {
    read,
    change: changes.find((operation) => needsCredential(operation, schemes)) ?? changes[0],
    credential: reads.find((operation) => needsCredential(operation, schemes)),
    public: reads.find(
      (operation) => operation.security.length === 0 && schemes.size > 0 && operation !== read,
    ),
  };
}

/**
 * Why no read can be tested, named by its cause: no GET operation at all, none whose security the
 * agent can send (the schemes it cannot send named), or none with a success answer a fake can give.
 */
function noReadWhy(source: OpenApiSource, chosen: Operation[], only: boolean): string {
  const which = only ? "chosen " : "";
  const gets = chosen.filter((operation) => operation.method === "GET");
  if (gets.length === 0) return `none of its ${which}operations is a GET; choose others with --operations.`;
  const schemes = new Set(source.credentials.map(({ scheme }) => scheme));
  if (!gets.some((operation) => satisfiable(operation, schemes))) {
    const needed = [...new Set(gets.flatMap((operation) => operation.security.flatMap(Object.keys)))];
    return `none of its ${which}GET operations can be called with a credential the agent sends: they need ${needed.map((name) => JSON.stringify(name)).join(", ")}${source.unsupportedSchemes.length > 0 ? `, and ${source.unsupportedSchemes.map((name) => JSON.stringify(name)).join(", ")} ${source.unsupportedSchemes.length > 1 ? "are schemes" : "is a scheme"} Switchboard cannot send (it sends API keys, HTTP basic and bearer, OAuth2 client credentials and OAuth2 access tokens)` : ""}; choose operations another scheme secures with --operations.`;
  }
  return `none of its ${which}GET operations has a success answer a test can check; choose others with --operations.`;
}

function settingsRows(source: OpenApiSource, prefix: string): string[] {
  const url = source.serverUrl
    ? `the API's address; default ${markdown(source.serverUrl)}, the description's first server`
    : `the API's address, required (the agent does not start without it): the description names no absolute server${source.apiRoot ? ` (its first server is ${code(source.apiRoot)})` : ""}`;
  return [
    `| \`${prefix}_API_URL\` | ${url} |`,
    ...source.credentials.flatMap((credential) =>
      credential.variables.map(
        (variable, index) =>
          `| \`${variable}\` | ${credentialRole(credential, index)} of the security scheme ${code(credential.scheme)}, sent ${credential.sent.replace(/`([^`]*)`/, (_whole, name: string) => code(name))} |`,
      ),
    ),
    ...(source.unsupportedSchemes.length > 0
      ? [
          `| | not sent: ${source.unsupportedSchemes.map(code).join(", ")} (the agent sends API keys, HTTP basic and bearer, OAuth2 client credentials, and an OAuth2 access token only where no other scheme serves) |`,
        ]
      : []),
  ];
}

/** What one variable of a credential holds. */
function credentialRole(credential: CredentialSetting, index: number): string {
  if (credential.variables.length === 1) return "the credential";
  if (credential.template.includes("CLIENT_ID")) return index === 0 ? "the client id" : "the client secret";
  return index === 0 ? "the user" : "the password";
}

/** The lines of the agent's section in .env.example: each variable with what it is. */
function envLines(source: OpenApiSource, prefix: string): string {
  return [
    source.serverUrl
      ? `# The API's address; default: the description's first server (${oneLine(source.serverUrl)}).`
      : "# The API's address (required: the description names no absolute server).",
    `${prefix}_API_URL=`,
    ...source.credentials.flatMap((credential) => [
      `# Security scheme ${JSON.stringify(credential.scheme)}, sent ${credential.sent.replace(/`/g, "")}; read when a call needs it.`,
      ...credential.variables.map((variable) => `${variable}=`),
    ]),
  ].join("\n");
}

/** The card's description when none is given: what the agent is made from. */
export function openApiDescription(source: OpenApiSource): string {
  const title = oneLine(source.title);
  return `The ${title.length > 120 ? `${title.slice(0, 119)}…` : title} API through its OpenAPI description (generated; describe what the agent is for).`;
}

/** Every credential variable of the agent: the chart's Secret keys. */
export function credentialVariables(source: OpenApiSource): string[] {
  return source.credentials.flatMap(({ variables }) => variables);
}

/** What the openapi-agent templates add to an agent's template values. */
export function openApiTemplateValues(
  source: OpenApiSource,
  values: TemplateValues,
  options: { specArgument: string; command: string; only?: string[]; chosen: Operation[] },
): TemplateValues {
  const { chosen } = options;
  const ENV = values.ENV ?? "";
  const reads = chosen.filter((operation) => operation.read);
  const changes = chosen.filter((operation) => !operation.read);
  const tested = testedOperations(source, chosen);
  if (!tested.read)
    throw new Error(`--openapi ${source.file}: ${noReadWhy(source, chosen, options.only !== undefined)}`);
  const title = values.title ?? values.name ?? "";
  const apiTitle = `${source.title}${source.version ? ` ${source.version}` : ""}`;
  const auth = Object.fromEntries(source.credentials.map(({ scheme, template }) => [scheme, template]));
  const tableRow = (operation: Operation) =>
    `| \`${operation.tool}\` | ${operation.read ? "read" : "change, asks first"} | ${code(`${operation.method} ${operation.path}`)} |`;
  const examples = (list: Operation[]) =>
    JSON.stringify(
      list.slice(0, 2).map((one) => oneLine(one.about.split(". ")[0] ?? one.tool).replace(/\.$/, "")),
    );
  const { change, credential } = tested;
  // The variable emptied to see a call fail naming it: the first of a scheme the credential read needs.
  const schemes = new Set(source.credentials.map(({ scheme }) => scheme));
  const needed = credential?.security.find(
    (one) => Object.keys(one).length > 0 && Object.keys(one).every((name) => schemes.has(name)),
  );
  const credentialVariable = source.credentials.find(({ scheme }) => needed && scheme in needed)
    ?.variables[0];
  const changeQuestion = change ? `(${change.method} ${change.path.split("{")[0]}` : "";
  // Past the bound the agent offers find_operations and call_operation (tools.ts.tmpl passes no
  // maxTools), so the test's calls go through call_operation and its answers carry that name.
  const routed = chosen.length > DEFAULT_MAX_TOOLS;
  return {
    specFile: oneLine(options.specArgument),
    command: options.command,
    apiTitleMd: markdown(apiTitle),
    convertedNote: source.convertedFrom
      ? ` The description was Swagger ${markdown(source.convertedFrom)}: \`openapi.json\` is its conversion to OpenAPI 3 (swagger2openapi, as @switchboard/openapi-tools reads Swagger 2).`
      : "",
    chosenNote: options.only
      ? ` the generator was told to keep (${options.only.length} of ${source.operations.length}: \`CHOSEN\` in \`src/tools.ts\`)`
      : "",
    authLint:
      source.credentials.length > 0
        ? `// biome-ignore-all lint/suspicious/noTemplateCurlyInString: credentials name their variables as \${VAR}, on purpose.\n`
        : "",
    authJson: JSON.stringify(auth, null, 2),
    urlComment: source.serverUrl
      ? `Default: the description's first server, ${JSON.stringify(oneLine(source.serverUrl))}.`
      : "Required: the description names no absolute server.",
    // Declared (and so documented) beside the URL; openApiTools reads them at each call through AUTH.
    credentialFields: source.credentials
      .map(
        (credential) =>
          `\n  // Security scheme ${JSON.stringify(credential.scheme)}, sent ${credential.sent.replace(/`/g, "")}.${credential.variables
            .map((variable) => `\n  ${variable}: z.string().trim().optional(),`)
            .join("")}`,
      )
      .join(""),
    urlSchema: source.serverUrl ? "baseUrlSetting().optional()" : "baseUrlSetting()",
    chosenJson: options.only ? JSON.stringify({ only: options.only }) : "{}",
    labelJson: JSON.stringify(`The ${title} agent's OpenAPI description (openapi.json)`),
    promptFirstJson: JSON.stringify(
      `You are the ${title} agent of Switchboard, a platform-engineering assistant. You work only with the ${title} API (${oneLine(apiTitle)}), through one tool per operation of its OpenAPI description.`,
    ),
    apiRootJson: JSON.stringify(source.apiRoot),
    readTool: tested.read.tool,
    routedJson: JSON.stringify(routed),
    readMethod: tested.read.method,
    changeConst: change ? `\nconst CHANGE = call("${change.tool}");` : "",
    changeCases: change
      ? `
  change: {
    prompt: CHANGE,
    question: ${JSON.stringify(changeQuestion)},
    applied: (api) => api.requests.filter((request) => request.method !== "GET" && request.status < 400),
    answer: "${routed ? "call_operation" : change.tool} returned:",
  },
  decline: { prompt: CHANGE },`
      : "",
    credentialsCase:
      credential && credentialVariable
        ? `
  credentials: { variable: "${credentialVariable}", prompt: call("${credential.tool}"), error: "${credentialVariable}" },`
        : "",
    publicCase: tested.public
      ? `

it("sends no credential to an operation that declares none (security: [])", async () => {
  const result = await agent.ask(call("${tested.public.tool}"));
  expect(result.state).toBe("completed");
  expect(agent.service.requests.at(-1)?.status).toBeLessThan(300);
});`
      : "",
    readsSkillJson: JSON.stringify(`${title} reads`),
    readsAboutJson: JSON.stringify(
      reads.length > 0
        ? `Read through the API: ${reads
            .map((one) => one.tool)
            .slice(0, 8)
            .join(", ")}.`
        : "This API's description has no reading operations.",
    ),
    readExamplesJson: examples(reads),
    changesSkillJson: JSON.stringify(`${title} changes`),
    changesAboutJson: JSON.stringify(
      changes.length > 0
        ? `Change through the API (asks before changing anything): ${changes
            .map((one) => one.tool)
            .slice(0, 8)
            .join(", ")}.`
        : "This API's description has no changing operations.",
    ),
    changeExamplesJson: examples(changes),
    toolsTable: chosen.map(tableRow).join("\n"),
    skippedNote:
      source.skipped.length > 0
        ? `\nLeft out (not generated): ${markdown(source.skipped.join("; "))}.\n`
        : "",
    settingsTable: settingsRows(source, ENV).join("\n"),
    envLines: envLines(source, ENV),
  };
}
