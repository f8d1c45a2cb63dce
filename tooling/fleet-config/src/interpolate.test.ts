// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings hold Compose and TypeScript source, ${} included.
import { describe, expect, it } from "vitest";
import { interpolate, interpolatedNames } from "./interpolate.js";

describe("compose interpolation", () => {
  it("applies defaults, replacements and escapes as Compose does", () => {
    const env = { SET: "x", EMPTY: "" };
    expect(interpolate("${SET:-d} ${EMPTY:-d} ${EMPTY-d} ${UNSET-d}", env)).toBe("x d  d");
    expect(interpolate("${SET:+r} ${EMPTY:+r}|${EMPTY+r}|$SET $$SET", env)).toBe("r |r|x $SET");
    expect(interpolate("${UNSET:-${SET:+[${SET}]}}", env)).toBe("[x]");
    expect(() => interpolate("${UNSET:?needs UNSET}", env)).toThrow("UNSET: needs UNSET");
  });

  it("lists every referenced variable, nested ones too, but not escaped ones", () => {
    expect(interpolatedNames("${A:-${B:+$C}} $$D ${E}")).toEqual(["A", "B", "C", "E"]);
  });
});
