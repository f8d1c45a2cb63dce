import { join } from "node:path";
import { createLogger } from "@switchboard/common";
import { createChatModel } from "@switchboard/llm";
import { ARGO_CD_SPEC, BACKSTAGE_CATALOG_SPEC, loadVendorSpec } from "@switchboard-testing/fake-vendors";
import { PROVIDER_NAMES, type ScriptedLlm, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiTools } from "../src/index.js";
import { argumentsOf, exampleArgumentsOf, operationsOf, readDescription } from "../src/reading.js";

const SPECS = join(import.meta.dirname, "..", "..", "..", "testing", "fake-vendors", "specs");

// Every operation of the vendors' published descriptions the fakes are built on: its arguments made by
// exampleArgumentsOf are taken by the tool's own schema, and every provider's client, offered all the
// tools, gets them past the scripted model speaking its dialect (which refuses what that provider does).
describe("the tools of real descriptions take the arguments made for them", () => {
  let llm: ScriptedLlm;
  beforeAll(async () => {
    llm = await startScriptedLlm({ script: () => say("Which operation?") });
  });
  afterAll(() => llm?.close());
  const descriptions: Array<[string, () => Promise<string | Record<string, unknown>>]> = [
    ["Argo CD (Swagger 2, converted)", async () => (await loadVendorSpec(ARGO_CD_SPEC)) as never],
    ["Backstage's catalog (3.1)", async () => (await loadVendorSpec(BACKSTAGE_CATALOG_SPEC)) as never],
    ["Webex messaging", async () => join(SPECS, "webex", "messaging.json")],
    ["Swagger Petstore", async () => join(SPECS, "swagger-petstore", "openapi.yaml")],
    ["Open-Meteo", async () => join(SPECS, "open-meteo", "forecast.yml")],
  ];

  it.each(descriptions)("%s", async (_name, load) => {
    const document = await load();
    const { resolved } = await readDescription(document);
    const { operations } = operationsOf(resolved);
    expect(operations.length).toBeGreaterThan(0);
    const refused: string[] = [];
    for (const operation of operations) {
      const schema = argumentsOf(operation);
      const check = schema.safeParse(exampleArgumentsOf(operation));
      if (!check.success) refused.push(`${operation.tool}: ${check.error.message}`);
    }
    expect(refused).toEqual([]);

    const api = await openApiTools({
      document,
      baseUrl: "http://127.0.0.1:9/",
      env: {},
      logger: createLogger({ level: "silent" }),
    });
    const tools = api.tools().map((one) => one.tool);
    for (const provider of PROVIDER_NAMES) {
      const { model } = await createChatModel({ env: llm.envFor(provider) });
      const bound = (model as Required<Pick<typeof model, "bindTools">>).bindTools(tools);
      expect((await bound.invoke("hello")).text, provider).toBe("Which operation?");
    }
  });
});
