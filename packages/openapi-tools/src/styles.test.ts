import { describe, expect, it } from "vitest";
import { cookiePairs, headerText, pathText, queryPairs, styleOf } from "./styles.js";

// OpenAPI 3.1's "Style Examples" table: color = "blue", ["blue","black","brown"], {R:100,G:200,B:150}.
const PRIMITIVE = "blue";
const ARRAY = ["blue", "black", "brown"];
const OBJECT = { R: 100, G: 200, B: 150 };
const query = (value: unknown, style: Parameters<typeof queryPairs>[2], explode: boolean) =>
  queryPairs("color", value, style, explode).join("&");

describe("parameter styles, as OpenAPI's table lays them out", () => {
  it("defaults: form (exploded) in the query and cookies, simple in the path and headers", () => {
    expect(styleOf("query", undefined, undefined)).toEqual({ style: "form", explode: true });
    expect(styleOf("cookie", undefined, undefined)).toEqual({ style: "form", explode: true });
    expect(styleOf("path", undefined, undefined)).toEqual({ style: "simple", explode: false });
    expect(styleOf("header", undefined, undefined)).toEqual({ style: "simple", explode: false });
    expect(styleOf("query", "pipeDelimited", undefined)).toEqual({ style: "pipeDelimited", explode: false });
    expect(styleOf("query", "nonsense", false)).toEqual({ style: "form", explode: false });
  });

  it("matrix, label and simple in the path", () => {
    expect(pathText("color", PRIMITIVE, "matrix", false)).toBe(";color=blue");
    expect(pathText("color", ARRAY, "matrix", false)).toBe(";color=blue,black,brown");
    expect(pathText("color", ARRAY, "matrix", true)).toBe(";color=blue;color=black;color=brown");
    expect(pathText("color", OBJECT, "matrix", false)).toBe(";color=R,100,G,200,B,150");
    expect(pathText("color", OBJECT, "matrix", true)).toBe(";R=100;G=200;B=150");
    expect(pathText("color", "", "matrix", false)).toBe(";color");
    expect(pathText("color", PRIMITIVE, "label", false)).toBe(".blue");
    expect(pathText("color", ARRAY, "label", false)).toBe(".blue,black,brown");
    expect(pathText("color", ARRAY, "label", true)).toBe(".blue.black.brown");
    expect(pathText("color", OBJECT, "label", false)).toBe(".R,100,G,200,B,150");
    expect(pathText("color", OBJECT, "label", true)).toBe(".R=100.G=200.B=150");
    expect(pathText("color", PRIMITIVE, "simple", false)).toBe("blue");
    expect(pathText("color", ARRAY, "simple", true)).toBe("blue,black,brown");
    expect(pathText("color", OBJECT, "simple", false)).toBe("R,100,G,200,B,150");
    expect(pathText("color", OBJECT, "simple", true)).toBe("R=100,G=200,B=150");
  });

  it("every value stays inside its path segment: `/`, `?`, `#`, `,` in a value are encoded", () => {
    expect(pathText("id", "../admin?x#y", "simple", false)).toBe("..%2Fadmin%3Fx%23y");
    expect(pathText("id", ["a,b", "c/d"], "simple", false)).toBe("a%2Cb,c%2Fd");
  });

  it("form, spaceDelimited, pipeDelimited and deepObject in the query", () => {
    expect(query(PRIMITIVE, "form", true)).toBe("color=blue");
    expect(query(ARRAY, "form", false)).toBe("color=blue,black,brown");
    expect(query(ARRAY, "form", true)).toBe("color=blue&color=black&color=brown");
    expect(query(OBJECT, "form", false)).toBe("color=R,100,G,200,B,150");
    expect(query(OBJECT, "form", true)).toBe("R=100&G=200&B=150");
    expect(query(ARRAY, "spaceDelimited", false)).toBe("color=blue%20black%20brown");
    expect(query(OBJECT, "spaceDelimited", false)).toBe("color=R%20100%20G%20200%20B%20150");
    expect(query(ARRAY, "pipeDelimited", false)).toBe("color=blue|black|brown");
    expect(query(OBJECT, "pipeDelimited", false)).toBe("color=R|100|G|200|B|150");
    expect(query(OBJECT, "deepObject", true)).toBe("color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150");
    // A value's own delimiter is encoded, the style's stays literal.
    expect(query(["a,b", "c"], "form", false)).toBe("color=a%2Cb,c");
    expect(query("x&admin=1", "form", true)).toBe("color=x%26admin%3D1");
  });

  it("simple in headers; form in cookies, values encoded so none starts another cookie", () => {
    expect(headerText(ARRAY, false)).toBe("blue,black,brown");
    expect(headerText(OBJECT, false)).toBe("R,100,G,200,B,150");
    expect(headerText(OBJECT, true)).toBe("R=100,G=200,B=150");
    expect(cookiePairs("color", PRIMITIVE, true)).toEqual([["color", "blue"]]);
    expect(cookiePairs("color", ARRAY, false)).toEqual([["color", "blue,black,brown"]]);
    expect(cookiePairs("color", ARRAY, true)).toEqual([
      ["color", "blue"],
      ["color", "black"],
      ["color", "brown"],
    ]);
    expect(cookiePairs("color", OBJECT, true)).toEqual([
      ["R", "100"],
      ["G", "200"],
      ["B", "150"],
    ]);
    expect(cookiePairs("session", "x; admin=1\r\nX-Evil: 1", true)).toEqual([
      ["session", "x%3B%20admin%3D1%0D%0AX-Evil%3A%201"],
    ]);
  });
});
