import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { parse } from "yaml";

/** Where the vendored descriptions are: one folder each, the description and its LICENSE. */
export const DESCRIPTIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "descriptions");

export interface CorpusEntry {
  /** The folder under descriptions/, and the generated agent's name (`corpus-<name>`). */
  name: string;
  /** The description's file in that folder (`.gz` when stored compressed). */
  file: string;
  /** Where it was taken from: the public repository, its path and commit. */
  source: { repository: string; path: string; commit: string };
  /** The licence its repository gives it (the LICENSE beside it is that repository's). */
  licence: string;
  /** What the description says it is: `openapi` or `swagger` and its version. */
  format: string;
  /** Operations in the description, as counted by its paths. */
  operations: number;
  /** The uncompressed size in bytes. */
  bytes: number;
  /** The generator's large-description options (`--tags`), where the whole list is too long to offer. */
  generate?: { tags?: string[] };
}

/** The corpus, smallest first. Each was fetched from its public repository at the commit named. */
export const CORPUS: readonly CorpusEntry[] = [
  {
    name: "museum",
    file: "openapi.yaml",
    source: {
      repository: "Redocly/museum-openapi-example",
      path: "openapi.yaml",
      commit: "2770b2b2e59832d245c7b0eb0badf6568d7efb53",
    },
    licence: "MIT",
    format: "openapi 3.1.0",
    operations: 8,
    bytes: 23_137,
  },
  {
    name: "twilio-accounts",
    file: "openapi.json.gz",
    source: {
      repository: "twilio/twilio-oai",
      path: "spec/json/twilio_accounts_v1.json",
      commit: "d50069b44ea8cd23141385bdb6db48f16ff75bb5",
    },
    licence: "MIT",
    format: "openapi 3.0.1",
    operations: 20,
    bytes: 83_414,
  },
  {
    name: "netlify",
    file: "swagger.yml.gz",
    source: {
      repository: "netlify/open-api",
      path: "swagger.yml",
      commit: "650803172c55155ec34dcad94602e058477a4a98",
    },
    licence: "MIT",
    format: "swagger 2.0",
    operations: 174,
    bytes: 149_766,
    generate: { tags: ["site", "deploy"] },
  },
  {
    name: "slack",
    file: "swagger.json.gz",
    source: {
      repository: "slackapi/slack-api-specs",
      path: "web-api/slack_web_openapi_v2_without_examples.json",
      commit: "bc08db49625630e3585bf2f1322128ea04f2a7f3",
    },
    licence: "MIT",
    format: "swagger 2.0",
    operations: 174,
    bytes: 1_039_581,
  },
  {
    name: "twilio-api",
    file: "openapi.json.gz",
    source: {
      repository: "twilio/twilio-oai",
      path: "spec/json/twilio_api_v2010.json",
      commit: "d50069b44ea8cd23141385bdb6db48f16ff75bb5",
    },
    licence: "MIT",
    format: "openapi 3.0.1",
    operations: 197,
    bytes: 1_869_177,
  },
  {
    name: "discord",
    file: "openapi.json.gz",
    source: {
      repository: "discord/discord-api-spec",
      path: "specs/openapi.json",
      commit: "74fda0fad044407ea280043a03ffc9bc64c4e49e",
    },
    licence: "MIT",
    format: "openapi 3.1.0",
    operations: 242,
    bytes: 1_183_025,
  },
  {
    name: "box",
    file: "openapi.json.gz",
    source: {
      repository: "box/box-openapi",
      path: "openapi.json",
      commit: "c9a878a9824344129881392e2b08f7117201e82e",
    },
    licence: "Apache-2.0",
    format: "openapi 3.0.2",
    operations: 296,
    bytes: 1_761_086,
  },
];

/** The entry of that name; an unknown name is an error listing the corpus. */
export function corpusEntry(name: string): CorpusEntry {
  const entry = CORPUS.find((candidate) => candidate.name === name);
  if (!entry)
    throw new Error(
      `No description "${name}" in the corpus; it has ${CORPUS.map((e) => e.name).join(", ")}.`,
    );
  return entry;
}

/** The file's text as published (decompressed when stored as `.gz`). */
export function descriptionText(entry: CorpusEntry): string {
  const stored = readFileSync(join(DESCRIPTIONS_DIR, entry.name, entry.file));
  return (entry.file.endsWith(".gz") ? gunzipSync(stored) : stored).toString("utf8");
}

/** The file's name as published: what a user would hand `pnpm new-agent --openapi`. */
export function publishedFileName(entry: CorpusEntry): string {
  return entry.file.replace(/\.gz$/, "");
}

/** The description as an object (JSON or YAML, as published; a Swagger 2 one is not converted here). */
export function descriptionOf(entry: CorpusEntry): Record<string, unknown> {
  const text = descriptionText(entry);
  return /\.ya?ml$/.test(publishedFileName(entry)) ? parse(text) : JSON.parse(text);
}

/** The largest description: the benchmark's. */
export function largest(): CorpusEntry {
  return CORPUS.reduce((a, b) => (b.operations > a.operations ? b : a));
}

export { apiRootOf } from "./api-root.js";
export { agentNameOf, generate, sourceFileIn } from "./generate.js";
export {
  copyRepo,
  inParallel,
  linkInstalledDependencies,
  type RunResult,
  repoRoot,
  run,
} from "./workspace.js";
