// Fit benchmark in the browser (not a test): median wall time from the click on Fit to the report
// shown, for LuGre (4 free parameters, 2,000 samples) and the Stribeck law (4 free, 400 samples),
// on the same records as `cargo run --release -p friction-fit --example fit_times` and
// `python3 bench/fit_scipy.py bench`. The fit runs in the page's worker (wasm).
//   node bench/browser/fit-times.mjs [--runs 5]
// Build first (`trunk build --release`); this script builds nothing.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { startServer, launch, openPage } from "../../tests/e2e/harness.js";

const i = process.argv.indexOf("--runs");
const RUNS = i > 0 ? Number(process.argv[i + 1]) : 5;
const FIX = path.resolve(import.meta.dirname, "../../crates/friction-fit/tests/fixtures");

const server = await startServer();
const browser = await launch();
try {
  const { page } = await openPage(browser.context, server.url);
  await page.waitForFunction(() => document.documentElement.dataset.ready === "1");
  await page.click("#fit-toggle");
  await page.waitForFunction(() => document.querySelectorAll("#fit-model option").length > 40);
  for (const [file, model, free] of [
    ["stribeck.csv", "stribeck", ["mus", "muk", "vs", "bv"]],
    ["lugre2000.csv", "lugre", ["sigma0", "sigma1", "muk", "mus"]],
  ]) {
    await page.selectOption("#fit-model", model);
    const buffer = await readFile(path.join(FIX, file));
    await page.setInputFiles("#fit-file", { name: file, mimeType: "text/csv", buffer });
    await page.waitForFunction((f) => document.getElementById("fit-record").textContent.startsWith(f), file);
    for (const key of free) await page.check(`#fit-params tr[data-key="${key}"] .fit-free`);
    const times = [];
    for (let r = 0; r < RUNS; r++) {
      await page.evaluate(() => { document.getElementById("fit-progress").textContent = ""; });
      const t0 = Date.now();
      await page.click("#fit-run");
      await page.waitForFunction(() => document.getElementById("fit-progress").textContent === "done", null, { timeout: 600_000 });
      times.push((Date.now() - t0) / 1000);
    }
    times.sort((a, b) => a - b);
    const summary = await page.textContent("#fit-summary");
    console.log(`${file}: median ${times[Math.floor(RUNS / 2)].toFixed(3)} s over ${RUNS} fits in the browser worker (${summary})`);
  }
} finally {
  await browser.close();
  await server.close();
}
