import { afterEach, describe, expect, it } from "vitest";
import { fleetFixture, repoRoot } from "../test/fixture.js";
import { checkEnvExample } from "./env-check.js";
import { checkLlmOverrides } from "./llm-check.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function fixture(edits: Record<string, (text: string) => string>): string {
  const made = fleetFixture();
  cleanups.push(made.cleanup);
  for (const [path, change] of Object.entries(edits)) made.edit(path, change);
  return made.root;
}

describe("per-agent LLM overrides in the fleet files", () => {
  it("are documented and sound in this repository", () => {
    expect(checkLlmOverrides(repoRoot)).toEqual([]);
  });

  it("accept a model per agent with what its provider needs, and count them as read", () => {
    const root = fixture({
      ".env.example": (text) =>
        `${text}\nSUPERVISOR_LLM_PROVIDER=openai\nSUPERVISOR_OPENAI_API_KEY=sk-supervisor\nSUPERVISOR_OPENAI_MODEL_NAME=gpt-4o-mini\n`,
      "charts/switchboard/values.yaml": (text) =>
        text
          .replace(
            '  LLM_PROVIDER: ""',
            '  LLM_PROVIDER: ""\n  AWS_LLM_PROVIDER: anthropic-claude\n  ANTHROPIC_MODEL_NAME: claude-sonnet-4-5',
          )
          .replace(
            /(\n {2}aws:\n {4}enabled: true\n {4}port: 8012\n {4}env:\n)/,
            "$1      AWS_ANTHROPIC_MODEL_NAME: claude-opus-4-1\n",
          ),
    });
    expect(checkLlmOverrides(root)).toEqual([]);
    expect(checkEnvExample(root).filter((problem) => /SUPERVISOR_(LLM|OPENAI)_/.test(problem))).toEqual([]);
  });

  it("name an unknown agent, an unknown provider and missing settings, where each is written", () => {
    const root = fixture({
      ".env.example": (text) =>
        `${text}\nJRIA_LLM_PROVIDER=openai\nSUPERVISOR_LLM_PROVIDER=claude\nGITHUB_LLM_PROVIDER=anthropic-claude\n`,
      "docker-compose.dev.yaml": (text) =>
        text.replace(
          "      AGENT_PUBLIC_URL: http://localhost:8000\n",
          "      AGENT_PUBLIC_URL: http://localhost:8000\n      SUPERVISOR_OLLAMA_MODEL: llama3.1\n      SUPERVSIOR_LLM_PROVIDER: ollama\n",
        ),
      "charts/switchboard/values.yaml": (text) =>
        text.replace('  LLM_PROVIDER: ""', '  LLM_PROVIDER: ""\n  JIRA_LLM_PROVIDER: aws-bedrock'),
    });
    const problems = checkLlmOverrides(root);
    expect(problems).toEqual([
      expect.stringMatching(
        /^\.env\.example: JRIA_LLM_PROVIDER sets LLM_PROVIDER for an agent "JRIA" that does not exist: use <AGENT>_LLM_PROVIDER with <AGENT> one of .*JIRA/,
      ),
      ".env.example: SUPERVISOR_LLM_PROVIDER=claude is no LLM provider: use one of openai, azure-openai, anthropic-claude, aws-bedrock, google-gemini, ollama (or offline).",
      expect.stringMatching(
        /^\.env\.example: the github agent's LLM: LLM_PROVIDER=anthropic-claude needs ANTHROPIC_API_KEY, ANTHROPIC_MODEL_NAME: .*The github agent has its own GITHUB_LLM_PROVIDER/,
      ),
      expect.stringMatching(
        /^docker-compose\.dev\.yaml supervisor: SUPERVSIOR_LLM_PROVIDER sets LLM_PROVIDER for an agent "SUPERVSIOR" that does not exist/,
      ),
      // In the chart the Jira agent's component lacks the Bedrock model and region (its AWS keys would
      // be secrets it is not given either way: none is required, the AWS chain may supply them).
      expect.stringMatching(
        /^charts\/switchboard\/values\.yaml config and agents\.jira: the jira agent's LLM: LLM_PROVIDER=aws-bedrock needs AWS_BEDROCK_MODEL_ID, AWS_REGION/,
      ),
    ]);
  });

  it("require .env.example to document <AGENT>_LLM_PROVIDER", () => {
    const root = fixture({
      ".env.example": (text) => text.replaceAll("<AGENT>_LLM_PROVIDER", "the provider"),
    });
    expect(checkLlmOverrides(root)).toEqual([
      ".env.example: document <AGENT>_LLM_PROVIDER (each agent's own LLM settings).",
    ]);
  });

  it("hold the host of configured agents' settings to the same providers", () => {
    const root = fixture({
      "charts/switchboard/values.yaml": (text) =>
        text
          .replace("dynamicAgents:\n  enabled: false", "dynamicAgents:\n  enabled: true")
          .replace("  port: 8100\n  env: {}", "  port: 8100\n  env:\n    LLM_PROVIDER: openia"),
    });
    expect(checkLlmOverrides(root)).toEqual([
      expect.stringMatching(
        /^charts\/switchboard\/values.yaml config and dynamicAgents: LLM_PROVIDER=openia is no LLM provider/,
      ),
    ]);
  });
});
