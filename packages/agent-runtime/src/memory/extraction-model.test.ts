import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { describe, expect, it } from "vitest";
import { extractionModel } from "./extraction-model.js";

const fleet = {
  LLM_PROVIDER: "openai",
  OPENAI_API_KEY: "sk-test",
  OPENAI_MODEL_NAME: "gpt-4o",
  JIRA_LLM_PROVIDER: "ollama",
  JIRA_OLLAMA_MODEL: "llama3.1:70b",
};

describe("the fact-extraction model", () => {
  it("is FACT_EXTRACTION_MODEL on the agent's own provider, its <AGENT>_ overrides applied", async () => {
    const own = {} as BaseChatModel;
    const jira = (await extractionModel(fleet, "jira", own, "llama3.2:3b")) as BaseChatModel & {
      model: string;
    };
    expect(jira._llmType()).toBe("ollama");
    expect(jira.model).toBe("llama3.2:3b");
    const github = (await extractionModel(fleet, "github", own, "gpt-4o-mini")) as BaseChatModel & {
      model: string;
    };
    expect(github._llmType()).toBe("openai");
    expect(github.model).toBe("gpt-4o-mini");
    expect(await extractionModel(fleet, "jira", own, undefined)).toBe(own);
  });
});
