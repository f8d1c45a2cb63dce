// `pnpm bench:web` (pnpm --filter @switchboard-testing/web-e2e bench): what the web chat costs, printed as tables.
// 1. The page's JavaScript and CSS as the browser downloads them, raw and gzipped.
// 2. Send → first streamed answer token in Chromium, against the local fleet with a scripted model that
//    answers at once (zero latency): what the chat itself (page, web server, supervisor, A2A) adds.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { benchReport } from "@switchboard-testing/benches";
import { repoRoot, startChatFleet, startFakes } from "../src/chat-fleet.js";
import { ensureChromium, launchBrowser } from "../src/chromium.js";
import { openPage } from "../src/page.js";

const report = benchReport(new URL("./README.md", import.meta.url), "web");

const ROUNDS = Number(process.env.ROUNDS ?? 20);

function bundleTable(): void {
  const assets = join(repoRoot, "tools", "web", "dist", "public", "assets");
  const rows = readdirSync(assets)
    .filter((file) => /\.(js|css)$/.test(file))
    .map((file) => {
      const bytes = readFileSync(join(assets, file));
      return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    });
  const js = rows.filter((row) => row.file.endsWith(".js"));
  report.print("\nThe page's assets (tools/web/dist/public/assets)\n");
  report.print("| file | raw kB | gzip kB |\n| --- | ---: | ---: |");
  for (const row of rows) report.print(`| ${row.file} | ${kb(row.raw)} | ${kb(row.gzip)} |`);
  const sum = (key: "raw" | "gzip") => js.reduce((total, row) => total + row[key], 0);
  report.print(`| **all JavaScript** | ${kb(sum("raw"))} | **${kb(sum("gzip"))}** |`);
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

/**
 * Runs in the page: sends a message the way Enter does and resolves with the milliseconds until the
 * first answer text is on screen. A string, so the script runner's transforms never reach the page.
 */
const TIME_FIRST_TOKEN = `async (message) => {
  const answers = () => document.querySelectorAll(".messages li.agent .answer").length;
  const before = answers();
  const box = document.querySelector("#message");
  box.value = message;
  box.dispatchEvent(new Event("input", { bubbles: true }));
  await new Promise((resolve) => requestAnimationFrame(resolve));
  const started = performance.now();
  box.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
  return new Promise((resolve, reject) => {
    setTimeout(() => reject(new Error("no answer within 30 s")), 30000);
    const observer = new MutationObserver(() => {
      if (answers() > before) {
        observer.disconnect();
        resolve(performance.now() - started);
      }
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  });
}`;

async function firstTokenTable(): Promise<void> {
  ensureChromium((line) => console.log(line));
  const { llm, jira } = await startFakes();
  const chat = await startChatFleet({ storage: { LANGGRAPH_CHECKPOINT_TYPE: "memory" }, llm, jira });
  const browser = await launchBrowser();
  try {
    const page = await openPage(browser, chat.webUrl);
    await page.locator('.agents li[data-agent="jira"] .status-up').waitFor();
    const direct: number[] = [];
    const routed: number[] = [];
    for (let round = 0; round < ROUNDS + 2; round++) {
      for (const [text, into] of [
        ["hello there", direct],
        ["jira: open issues in PLAT", routed],
      ] as const) {
        const ms = (await page.evaluate(`(${TIME_FIRST_TOKEN})(${JSON.stringify(text)})`)) as number;
        // Wait for the turn to end before the next one.
        await page.locator("#message").waitFor();
        await page.waitForFunction(() => !document.querySelector(".activity"));
        if (round >= 2) into.push(ms); // two warm-up rounds
      }
    }
    report.print(
      `\nSend → first streamed answer token in Chromium (zero-latency scripted model, ${ROUNDS} rounds)\n`,
    );
    report.print("| turn | median ms | p90 ms | min ms | max ms |\n| --- | ---: | ---: | ---: | ---: |");
    for (const [name, values] of [
      ["answered by the supervisor", direct],
      ["routed to Jira (one A2A hop)", routed],
    ] as const) {
      const sorted = [...values].sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
      report.print(
        `| ${name} | ${at(0.5).toFixed(0)} | ${at(0.9).toFixed(0)} | ${(sorted[0] ?? 0).toFixed(0)} | ${(sorted.at(-1) ?? 0).toFixed(0)} |`,
      );
    }
  } finally {
    await browser.close();
    await chat.stop();
    await Promise.all([llm.close(), jira.close()]);
  }
}

bundleTable();
await firstTokenTable();
report.save();
