// Fit benchmark in the browser (not a test): median wall time from the click on Fit to the report
// shown in the fit workspace (view=fit), for LuGre (4 free parameters, 2,000 samples) and the
// Stribeck law (4 free, 400 samples), on the same records as
// `cargo run --release -p friction-fit --example fit_times` and `python3 bench/fit_scipy.py bench`,
// and with `--real` LuGre from the defaults on the real tribometer record (../shared/realdata/,
// beside the repository; 40,481 samples). The fit runs in the page's worker (wasm).
//   node bench/browser/fit-times.mjs [--runs 5] [--real]
// Build first (`trunk build --release`); this script builds nothing.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { startServer, launch, openPage } from "../../tests/e2e/harness.js";

const i = process.argv.indexOf("--runs");
const RUNS = i > 0 ? Number(process.argv[i + 1]) : 5;
const FIX = path.resolve(import.meta.dirname, "../../crates/friction-fit/tests/fixtures");
const REAL = path.resolve(import.meta.dirname, "../../../shared/realdata/tribometer_reciprocating_FrictionModelsjl.csv");

const cases = [
  [path.join(FIX, "stribeck.csv"), "stribeck", ["mus", "muk", "vs", "bv"]],
  [path.join(FIX, "lugre2000.csv"), "lugre", ["sigma0", "sigma1", "muk", "mus"]],
];
// null: the model's usual set, as the core cuts it for the record
if (process.argv.includes("--real")) cases.push([REAL, "lugre", null]);

const server = await startServer();
const browser = await launch({ viewport: { width: 1366, height: 768 } });
try {
  const { page } = await openPage(browser.context, `${server.url}?v=1&view=fit`);
  await page.waitForFunction(() => document.querySelectorAll("#fit-model option").length > 40);
  for (const [file, model, free] of cases) {
    const buffer = await readFile(file);
    const name = path.basename(file);
    await page.setInputFiles("#fit-file", { name, mimeType: "text/csv", buffer });
    await page.waitForFunction((n) => document.getElementById("fit-cols-caption").textContent === n &&
      !document.getElementById("fit-run").disabled, name, { timeout: 60_000 });
    await page.selectOption("#fit-model", model);
    if (free) {
      for (const box of await page.$$("#fit-params .fit-free:not([disabled])")) await box.uncheck();
      for (const key of free) await page.check(`#fit-params tr[data-key="${key}"] .fit-free`);
    }
    const times = [];
    for (let r = 0; r < RUNS; r++) {
      const t0 = Date.now();
      await page.click("#fit-run");
      await page.waitForSelector("#fit-result:not([hidden])", { timeout: 600_000 });
      times.push((Date.now() - t0) / 1000);
    }
    times.sort((a, b) => a - b);
    const summary = await page.textContent("#fit-summary");
    console.log(`${name} (${model}): median ${times[Math.floor(RUNS / 2)].toFixed(3)} s over ${RUNS} fits in the browser worker (${summary})`);
  }
} finally {
  await browser.close();
  await server.close();
}
