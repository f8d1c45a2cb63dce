import { z } from "zod";

/**
 * Switchboard's evaluation set: one YAML file per set. `schema/eval-set.schema.json` is generated
 * from this (`pnpm --filter @switchboard/eval schema`) so editors can check a set as it is written.
 */

const Pattern = z
  .string()
  .min(1)
  .refine(
    (source) => {
      try {
        new RegExp(source);
        return true;
      } catch {
        return false;
      }
    },
    { message: "not a valid regular expression (JavaScript syntax)" },
  );

/** How one argument of a tool call is matched: a plain value is compared exactly (JSON equality). */
export const ArgMatcher = z.union([
  z
    .object({ contains: z.string().describe("the argument, as text, contains this (case-insensitive)") })
    .strict(),
  z.object({ regex: Pattern.describe("the argument, as text, matches this") }).strict(),
  z.object({ any: z.literal(true).describe("the argument is present, whatever its value") }).strict(),
  z.unknown().describe("this exact value"),
]);

export const ToolCallExpectation = z
  .object({
    name: z.string().min(1).describe("the tool's name as the agent offers it"),
    agent: z.string().min(1).optional().describe("the agent that must make the call (any, when absent)"),
    args: z
      .record(z.string(), ArgMatcher)
      .optional()
      .describe("arguments that must match; others the call has are not looked at"),
  })
  .strict();

/** A tool's name alone, or the call with its agent and argument matchers. */
const ToolCall = z.union([
  z.string().min(1).describe("the tool's name: any arguments, any agent"),
  ToolCallExpectation,
]);

export const MatchMode = z
  .enum(["exact", "in-order", "any-order"])
  .describe(
    "exact: these calls and no others, in this order; in-order: these in this order, others between allowed; any-order: each of these, in any order",
  );

export const Expectations = z
  .object({
    agents: z
      .union([
        z.array(z.string().min(1)),
        z.object({ names: z.array(z.string().min(1)), match: MatchMode.default("in-order") }).strict(),
      ])
      .optional()
      .describe("the agents the supervisor must ask; a list is matched in order"),
    tools: z
      .union([
        z.array(ToolCall),
        z.object({ calls: z.array(ToolCall), match: MatchMode.default("in-order") }).strict(),
      ])
      .optional()
      .describe("the tool calls the agents must make; a list is matched in order"),
    answer: z
      .object({
        contains: z.array(z.string().min(1)).optional().describe("each must appear (case-insensitive)"),
        not_contains: z.array(z.string().min(1)).optional().describe("none may appear (case-insensitive)"),
        regex: z.array(Pattern).optional().describe("each must match"),
      })
      .strict()
      .optional(),
    rubric: z
      .array(z.string().min(1))
      .optional()
      .describe("criteria a judge model decides for the answer, each with its reason kept"),
  })
  .strict();

export const EvalCaseSchema = z
  .object({
    id: z
      .string()
      .regex(/^[A-Za-z0-9][\w.-]*$/, "letters, digits, '.', '_' and '-' only")
      .describe("unique in the set"),
    input: z.string().min(1).optional().describe("the user's message (or give `messages`)"),
    messages: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe("several user messages, sent one after the other in one conversation"),
    target: z.string().min(1).optional().describe("the agent to send to; the set's, else the supervisor"),
    expect: Expectations.default({}),
    tags: z.array(z.string()).optional(),
    vendors: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        "each vendor's state for this case (jira, github, argocd, aws, weather, …), in its fake's own seed shape (testing/eval-fakes/README.md): fresh state per case when the evaluation runs on the fakes",
      ),
  })
  .strict()
  .refine((c) => (c.input === undefined) !== (c.messages === undefined), {
    message: "give exactly one of `input` and `messages`",
  });

export const EvalSetSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().optional(),
    target: z.string().min(1).optional().describe("the agent every case is sent to; default the supervisor"),
    runs: z
      .number()
      .int()
      .min(1)
      .max(50)
      .optional()
      .describe("runs per case (the command line's --runs wins)"),
    cases: z.array(EvalCaseSchema).min(1),
  })
  .strict();

export type EvalSetFile = z.infer<typeof EvalSetSchema>;
export type ToolCallExpectationFile = z.infer<typeof ToolCall>;
