import { z } from "zod";
import { EvalSetSchema } from "./schema.js";

/** The set format as JSON Schema (draft 2020-12), for editors: what `schema/eval-set.schema.json` holds. */
export function evalSetJsonSchema(): Record<string, unknown> {
  return {
    title: "Switchboard evaluation set",
    ...z.toJSONSchema(EvalSetSchema, { io: "input", unrepresentable: "any" }),
  };
}
