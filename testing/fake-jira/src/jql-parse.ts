/** A parser for the JQL subset the fake understands: clauses, AND/OR/NOT, parentheses, ORDER BY. */
export type JqlValue =
  | { kind: "text"; text: string }
  | { kind: "empty" }
  | { kind: "function"; name: string };

export type JqlOperator =
  | "="
  | "!="
  | "~"
  | "!~"
  | ">"
  | ">="
  | "<"
  | "<="
  | "in"
  | "not in"
  | "is"
  | "is not";

export type JqlNode =
  | { kind: "clause"; field: string; op: JqlOperator; values: JqlValue[] }
  | { kind: "and" | "or"; left: JqlNode; right: JqlNode }
  | { kind: "not"; inner: JqlNode };

export interface JqlQuery {
  where: JqlNode | undefined;
  orderBy: { field: string; direction: "asc" | "desc" }[];
}

export class JqlError extends Error {}

type Token = { type: "word" | "string" | "op" | "punct"; text: string; at: number };

const operatorPattern = /^(!=|!~|>=|<=|=|~|>|<)/;

function tokenize(jql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < jql.length) {
    const ch = jql[i] ?? "";
    if (/\s/.test(ch)) {
      i++;
    } else if (ch === '"' || ch === "'") {
      const end = jql.indexOf(ch, i + 1);
      if (end < 0)
        throw new JqlError(
          `Error in the JQL Query: The quoted string starting at character ${i + 1} is not closed.`,
        );
      tokens.push({ type: "string", text: jql.slice(i + 1, end), at: i });
      i = end + 1;
    } else if ("(),".includes(ch)) {
      tokens.push({ type: "punct", text: ch, at: i });
      i++;
    } else {
      const op = operatorPattern.exec(jql.slice(i));
      if (op) {
        tokens.push({ type: "op", text: op[0], at: i });
        i += op[0].length;
        continue;
      }
      const word = /^[^\s"'(),=!~<>]+/.exec(jql.slice(i));
      if (!word)
        throw new JqlError(`Error in the JQL Query: Unexpected character '${ch}' at character ${i + 1}.`);
      tokens.push({ type: "word", text: word[0], at: i });
      i += word[0].length;
    }
  }
  return tokens;
}

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): JqlQuery {
    const where = this.atKeyword("order") || this.done() ? undefined : this.or();
    const orderBy: JqlQuery["orderBy"] = [];
    if (this.atKeyword("order")) {
      this.pos++;
      this.expectKeyword("by");
      do {
        const field = this.next("a field name to order by").text.toLowerCase();
        let direction: "asc" | "desc" = "asc";
        if (this.atKeyword("asc") || this.atKeyword("desc"))
          direction = this.next("").text.toLowerCase() as "asc" | "desc";
        orderBy.push({ field, direction });
      } while (this.eat(","));
    }
    if (!this.done()) this.fail(`Unexpected '${this.peek()?.text}'`);
    return { where, orderBy };
  }

  private or(): JqlNode {
    let left = this.and();
    while (this.atKeyword("or")) {
      this.pos++;
      left = { kind: "or", left, right: this.and() };
    }
    return left;
  }

  private and(): JqlNode {
    let left = this.not();
    while (this.atKeyword("and")) {
      this.pos++;
      left = { kind: "and", left, right: this.not() };
    }
    return left;
  }

  private not(): JqlNode {
    if (this.atKeyword("not")) {
      this.pos++;
      return { kind: "not", inner: this.not() };
    }
    if (this.eat("(")) {
      const inner = this.or();
      if (!this.eat(")")) this.fail("Expecting ')'");
      return inner;
    }
    return this.clause();
  }

  private clause(): JqlNode {
    const fieldToken = this.next("a field name");
    if (fieldToken.type === "op" || fieldToken.type === "punct")
      this.fail(`Expecting a field name but got '${fieldToken.text}'`);
    const field = fieldToken.text.toLowerCase();
    const op = this.operator();
    if (op === "in" || op === "not in") {
      if (!this.eat("(")) this.fail(`Expecting '(' after '${op.toUpperCase()}'`);
      const values: JqlValue[] = [this.value()];
      while (this.eat(",")) values.push(this.value());
      if (!this.eat(")")) this.fail("Expecting ')' to close the list");
      return { kind: "clause", field, op, values };
    }
    return { kind: "clause", field, op, values: [this.value()] };
  }

  private operator(): JqlOperator {
    const token = this.next("an operator");
    if (token.type === "op") return token.text as JqlOperator;
    const word = token.text.toLowerCase();
    if (word === "in") return "in";
    if (word === "is") {
      if (this.atKeyword("not")) {
        this.pos++;
        return "is not";
      }
      return "is";
    }
    if (word === "not" && this.atKeyword("in")) {
      this.pos++;
      return "not in";
    }
    return this.fail(
      `Expecting operator but got '${token.text}'. The valid operators are '=', '!=', '<', '>', '<=', '>=', '~', '!~', 'IN', 'NOT IN', 'IS' and 'IS NOT'`,
    );
  }

  private value(): JqlValue {
    const token = this.next("a value");
    if (token.type === "string") return { kind: "text", text: token.text };
    if (token.type !== "word") return this.fail(`Expecting a value but got '${token.text}'`);
    const lower = token.text.toLowerCase();
    if (lower === "empty" || lower === "null") return { kind: "empty" };
    if (this.peek()?.text === "(") {
      this.pos++;
      while (!this.eat(")")) this.next("')' to close the function call");
      return { kind: "function", name: lower };
    }
    return { kind: "text", text: token.text };
  }

  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }

  private done(): boolean {
    return this.pos >= this.tokens.length;
  }

  private next(expected: string): Token {
    const token = this.tokens[this.pos++];
    if (!token) return this.fail(`Expecting ${expected} but reached the end of the query`);
    return token;
  }

  private eat(punct: string): boolean {
    if (this.peek()?.type === "punct" && this.peek()?.text === punct) {
      this.pos++;
      return true;
    }
    return false;
  }

  private atKeyword(word: string): boolean {
    const token = this.peek();
    return token?.type === "word" && token.text.toLowerCase() === word;
  }

  private expectKeyword(word: string): void {
    if (!this.atKeyword(word)) this.fail(`Expecting '${word.toUpperCase()}'`);
    this.pos++;
  }

  private fail(message: string): never {
    const at = this.peek()?.at;
    throw new JqlError(
      `Error in the JQL Query: ${message}.${at === undefined ? "" : ` (character ${at + 1})`}`,
    );
  }
}

export function parseJql(jql: string): JqlQuery {
  return new Parser(tokenize(jql)).parse();
}
