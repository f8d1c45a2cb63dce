import type { ReportModel } from "./rows.js";

/** Table cells keep to one line and cannot end the cell early. */
const cell = (text: string) =>
  text
    .replaceAll("\\", "\\\\")
    .replaceAll("|", "\\|")
    .replace(/\s*\n\s*/g, " ");

export function renderMarkdown(model: ReportModel): string {
  const lines = [`# ${model.title}`, ""];
  lines.push(`| ${model.summaryHeader.join(" | ")} |`, `|${model.summaryHeader.map(() => "---").join("|")}|`);
  for (const config of model.configs)
    lines.push(`| ${[config.name, ...config.cells].map(cell).join(" | ")} |`);
  if (model.gate) lines.push("", `**Gate: ${model.gate.pass ? "passed" : "failed"}.** ${model.gate.reason}`);
  lines.push("", "## Cases", "");
  const names = model.configs.map((c) => c.name);
  lines.push(
    `| case | ${names.join(" | ")} | what failed | traces |`,
    `|---|${names.map(() => "---|").join("")}---|---|`,
  );
  for (const row of model.cases) {
    const rates = row.cells.map((c) => (c ? `${c.pass ? "✅" : "❌"} ${c.rate}` : "—"));
    const notes = row.cells.flatMap((c, i) =>
      c?.notes.length ? [`${names[i]}: ${c.notes.join("; ")}`] : [],
    );
    const traces = row.cells.flatMap((c, i) =>
      (c?.traces ?? []).map((t, run) =>
        t.url ? `[${names[i]} ${run + 1}](${t.url})` : `${names[i]} ${run + 1}: \`${t.id}\``,
      ),
    );
    lines.push(
      `| ${cell(row.key)} | ${rates.join(" | ")} | ${cell(notes.join(" · ")) || "—"} | ${traces.join(" ")} |`,
    );
  }
  const judged = model.cases.filter((row) => row.cells.some((c) => c?.verdicts.length));
  if (judged.length) {
    lines.push("", "## The judge's reasons (first run)", "");
    for (const row of judged) {
      lines.push(`### ${row.key}`, "", `> ${cell(row.request)}`, "");
      row.cells.forEach((c, i) => {
        for (const v of c?.verdicts ?? [])
          lines.push(`- ${names[i]}: ${v.pass ? "✅" : "❌"} ${cell(v.criterion)} — ${cell(v.reason)}`);
      });
      lines.push("");
    }
  }
  return `${lines.join("\n").trimEnd()}\n`;
}
