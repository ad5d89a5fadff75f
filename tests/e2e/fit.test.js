// The Fit panel: a record picked with the file input is fitted in the worker, the report and the
// overlay appear, the link opens the fitted parameters in another view; a bad file dropped on the
// panel shows its message (with the line) and changes nothing.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import path from "node:path";
import { startServer, launch, openPage, countColour, screenshot } from "./harness.js";

const FIXTURES = path.resolve(import.meta.dirname, "../../crates/friction-fit/tests/fixtures");
// the CLI the CSV export is compared with (scripts/test.sh builds it for the corpus first)
const CLI = process.env.FRICTION_LAB || path.resolve(import.meta.dirname, "../../target/release/friction-lab");

let server, browser;
before(async () => {
  server = await startServer();
  browser = await launch();
});
after(async () => { await browser?.close(); await server?.close(); });

async function ready(page) {
  await page.waitForFunction(() => document.documentElement.dataset.ready === "1");
}

/** Drops a file with `text` on the drop zone, as a browser does (a DataTransfer in a drop event). */
async function drop(page, name, text) {
  await page.evaluate(([name, text]) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], name, { type: "text/csv" }));
    const zone = document.getElementById("fit-drop");
    zone.dispatchEvent(new DragEvent("dragover", { dataTransfer: dt, bubbles: true, cancelable: true }));
    zone.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, [name, text]);
}

test("fit a picked file, see the report and the overlay, open the result in another view", async () => {
  const { page, problems } = await openPage(browser.context, server.url);
  await ready(page);
  await page.click("#fit-toggle");
  await page.waitForFunction(() => document.querySelectorAll("#fit-model option").length > 40);
  assert.equal(await page.inputValue("#fit-model"), "lugre");
  // the scipy agreement fixture: LuGre, σ0 = 5e4, σ1 = 200, μk = 0.12, μs = 0.2, 1 % noise
  const csv = await readFile(path.join(FIXTURES, "lugre.csv"));
  await page.setInputFiles("#fit-file", { name: "lugre.csv", mimeType: "text/csv", buffer: csv });
  await page.waitForFunction(() => document.getElementById("fit-record").textContent.includes("400 samples"));
  for (const key of ["sigma0", "sigma1", "muk", "mus"]) {
    await page.check(`#fit-params tr[data-key="${key}"] .fit-free`);
  }
  await page.click("#fit-run");
  await page.waitForSelector("#fit-result:not([hidden])", { timeout: 120_000 });
  const rows = await page.$$eval("#fit-table tbody tr", (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  // in the model's parameter order
  assert.deepEqual(rows.map((r) => r[0]), ["μ_s", "μ_k", "σ_0", "σ_1"]);
  const sigma0 = Number(rows[2][1]);
  assert.ok(sigma0 > 4.7e4 && sigma0 < 5.2e4, `σ0 = ${rows[2][1]}`);
  // the truth lies in each printed interval
  const truth = [0.2, 0.12, 5e4, 200];
  rows.forEach((r, i) => {
    const [lo, hi] = r[3].replace(/[[\]]/g, "").split(",").map(Number);
    assert.ok(lo <= truth[i] && truth[i] <= hi, `${r[0]}: ${r[3]}`);
  });
  assert.match(await page.textContent("#fit-summary"), /R² 0\.99/);
  assert.ok((await page.textContent("#fit-verdicts")).length > 10);
  // a verdict list with no warning reads as a pass, not in the warnings' red
  const verdict = await page.$eval("#fit-verdicts", (ul) => ({ text: ul.textContent, colour: getComputedStyle(ul).color, body: getComputedStyle(document.body).color }));
  if (/Every free parameter is determined/.test(verdict.text)) assert.equal(verdict.colour, verdict.body, JSON.stringify(verdict));
  else assert.notEqual(verdict.colour, verdict.body, JSON.stringify(verdict));
  // the fitted curve (vermillion) is drawn over the data in F–t and F–v; residuals in blue
  for (const i of [0, 1, 2]) {
    const px = await countColour(page, `#fit-chart-${i}`, [0xd5, 0x5e, 0x00]);
    assert.ok(px > 200, `chart ${i}: ${px} fit pixels`);
  }
  assert.ok(await countColour(page, "#fit-chart-3", [0x00, 0x72, 0xb2]) > 200, "residuals drawn");
  await page.locator("#fit-table").scrollIntoViewIfNeeded();
  await screenshot(page, "fit-report.png");
  await page.locator(".fit-charts").scrollIntoViewIfNeeded();
  await screenshot(page, "fit-charts.png");

  // the link: a normal link with the fitted values, into the curve view
  await page.selectOption("#fit-view", "curve");
  const href = await page.getAttribute("#fit-open", "href");
  const fitted = new URLSearchParams(href.split("?")[1]).get("sigma0");
  assert.ok(Math.abs(Number(fitted) - sigma0) < 10, `${fitted} vs ${sigma0}`);
  await Promise.all([page.waitForURL((u) => u.searchParams.get("view") === "curve"), page.click("#fit-open")]);
  await ready(page);
  assert.equal(new URL(page.url()).searchParams.get("sigma0"), fitted);
  assert.equal(Number(await page.inputValue("#c-sigma0-n")), Number(fitted));
  assert.deepEqual(problems, []);
});

/** Opens the Fit panel and loads the fixture `name` through the file input. */
async function loadFixture(page, name, samples) {
  await page.click("#fit-toggle");
  await page.waitForFunction(() => document.querySelectorAll("#fit-model option").length > 40);
  const csv = await readFile(path.join(FIXTURES, name));
  await page.setInputFiles("#fit-file", { name, mimeType: "text/csv", buffer: csv });
  await page.waitForFunction((n) => document.getElementById("fit-record").textContent.includes(`${n} samples`), samples);
}

async function setFree(page, keys) {
  for (const box of await page.$$("#fit-params .fit-free")) await box.uncheck();
  for (const key of keys) await page.check(`#fit-params tr[data-key="${key}"] .fit-free`);
}

test("Cancel stops a running fit, no result appears, and the next fit runs", async () => {
  const { page, problems } = await openPage(browser.context, server.url);
  await ready(page);
  await loadFixture(page, "lugre2000.csv", 2000);
  // LuGre, 4 free, 2,000 samples from 20 starting points: far longer than a click
  await setFree(page, ["sigma0", "sigma1", "muk", "mus"]);
  await page.fill("#fit-starts", "20");
  await page.click("#fit-run");
  await page.waitForFunction(() => /model runs/.test(document.getElementById("fit-progress").textContent));
  assert.equal(await page.isVisible("#fit-cancel"), true);
  assert.equal(await page.isDisabled("#fit-run"), true);
  await page.click("#fit-cancel");
  await page.waitForFunction(() => /cancelled/.test(document.getElementById("fit-message").textContent +
    document.getElementById("fit-progress").textContent));
  assert.equal(await page.isHidden("#fit-cancel"), true);
  assert.equal(await page.isDisabled("#fit-run"), false);
  assert.equal(await page.isHidden("#fit-result"), true, "a cancelled fit shows no result");
  // the progress read-out no longer moves: the worker is gone, not merely ignored
  const after = await page.textContent("#fit-progress");
  await page.waitForTimeout(500);
  assert.equal(await page.textContent("#fit-progress"), after);

  // still usable: the same record fitted again (one parameter, one start) gives a report
  await setFree(page, ["muk"]);
  await page.fill("#fit-starts", "1");
  await page.click("#fit-run");
  await page.waitForSelector("#fit-result:not([hidden])", { timeout: 120_000 });
  assert.equal(await page.isHidden("#fit-message"), true);
  const rows = await page.$$eval("#fit-table tbody tr", (trs) => trs.map((tr) => tr.cells[0].textContent));
  assert.deepEqual(rows, ["μ_k"]);
  assert.match(await page.textContent("#fit-summary"), /R² 0\.9/);
  assert.deepEqual(problems, []);
});

test("Export CSV gives the fit and residual columns, equal to the CLI's --csv for the same data", async (t) => {
  const { page, problems } = await openPage(browser.context, server.url);
  await ready(page);
  await loadFixture(page, "stribeck.csv", 400);
  await page.selectOption("#fit-model", "stribeck");
  const free = ["mus", "muk", "vs", "bv"];
  await setFree(page, free);
  await page.click("#fit-run");
  await page.waitForSelector("#fit-result:not([hidden])", { timeout: 120_000 });
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#fit-csv")]);
  assert.equal(download.suggestedFilename(), "fit-stribeck.csv");
  const exported = await readFile(await download.path(), "utf8");

  const { stdout } = await promisify(execFile)(CLI,
    ["fit", path.join(FIXTURES, "stribeck.csv"), `model=stribeck&free=${free.join(",")}`, "--csv"]);
  const table = (text) => text.trim().split("\n").map((l) => l.split(","));
  const [a, b] = [table(exported), table(stdout)];
  assert.deepEqual(a[0], ["t", "x", "v", "F", "F_fit", "residual"]);
  assert.deepEqual(a[0], b[0]);
  assert.equal(a.length, 401);
  assert.equal(a.length, b.length);
  const cols = a[0].length;
  const scale = [...Array(cols).keys()].map((c) => Math.max(...b.slice(1).map((r) => Math.abs(Number(r[c])))));
  let worst = 0;
  for (let k = 1; k < a.length; k++) {
    const [ra, rb] = [a[k].map(Number), b[k].map(Number)];
    assert.ok(ra.every(Number.isFinite), `row ${k}: ${a[k]}`);
    // the residual column is the fit minus the data
    assert.ok(Math.abs(ra[5] - (ra[4] - ra[3])) <= 1e-12 * scale[3], `row ${k}`);
    for (let c = 0; c < cols; c++) worst = Math.max(worst, Math.abs(ra[c] - rb[c]) / scale[c]);
  }
  t.diagnostic(`largest difference page vs CLI: ${worst.toExponential(2)} of the column's size`);
  assert.ok(worst <= 1e-9, `largest difference page vs CLI: ${worst} (relative to the column's size)`);
  // the fit is not the data: the residuals are noise of about 1 % of the force
  const rms = Math.sqrt(a.slice(1).reduce((s, r) => s + Number(r[5]) ** 2, 0) / 400);
  assert.ok(rms > 1e-3 * scale[3] && rms < 0.05 * scale[3], `residual RMS ${rms}`);
  assert.deepEqual(problems, []);
});

test("a file without units in its header is read with the units chosen on the page", async () => {
  const { page, problems } = await openPage(browser.context, server.url);
  await ready(page);
  await page.click("#fit-toggle");
  await page.waitForFunction(() => document.querySelectorAll("#fit-model option").length > 40);
  // the Stribeck fixture with x in mm, and no units in the header
  const lines = (await readFile(path.join(FIXTURES, "stribeck.csv"), "utf8")).trim().split("\n");
  const text = ["t,x,v,F", ...lines.slice(1).map((l) => {
    const f = l.split(",");
    f[1] = String(Number(f[1]) * 1e3);
    return f.join(",");
  })].join("\n");
  await drop(page, "no-units.csv", text);
  await page.waitForFunction(() => /units look wrong/.test(document.getElementById("fit-message").textContent));
  assert.equal(await page.isDisabled("#fit-run"), true, "nothing loaded");
  await page.selectOption("#fit-unit-x", "mm");
  await page.waitForFunction(() => document.getElementById("fit-record").textContent.includes("400 samples"));
  assert.match(await page.textContent("#fit-record"), /no unit in the header: t in s, x in mm, v in m\/s, F in N/);
  assert.equal(await page.isHidden("#fit-message"), true);
  await page.selectOption("#fit-model", "stribeck");
  await setFree(page, ["mus", "muk", "vs", "bv"]);
  await page.click("#fit-run");
  await page.waitForSelector("#fit-result:not([hidden])", { timeout: 120_000 });
  // the same fit as from the fixture with its SI header (the scipy agreement data: μs = 0.3)
  const mus = Number(await page.textContent("#fit-table tbody tr:first-child td:nth-child(2)"));
  assert.ok(Math.abs(mus - 0.3) < 0.01, `μs = ${mus}`);
  await page.locator("#fit-units").scrollIntoViewIfNeeded();
  await screenshot(page, "fit-units.png");
  assert.deepEqual(problems, []);
});

test("a bad file shows its message with the line and leaves the loaded record and result alone", async () => {
  const { page, problems } = await openPage(browser.context, server.url);
  await ready(page);
  await page.click("#fit-toggle");
  await page.waitForFunction(() => document.querySelectorAll("#fit-model option").length > 40);
  const csv = (await readFile(path.join(FIXTURES, "stribeck.csv"), "utf8"));
  await drop(page, "good.csv", csv);
  await page.waitForFunction(() => document.getElementById("fit-record").textContent.includes("400 samples"));
  const before = await page.textContent("#fit-record");
  const cases = [
    ["t,v\n0,1\n", "line 1: missing column F"],
    ["t,v,F\n0,0,0\n0.2,1,1\n0.1,1,1\n", "line 4: time 0.1 is not after"],
    ["t,v,F\n0,0,0\n1,NaN,1\n", "line 3: column v: NaN is not a finite number"],
    ["t,v,F\n0,0,0\n1,1,1\n", "only 2 data rows"],
    ["t,v [N],F\n0,0,0\n", "column v has unit \"N\", which is not a velocity"],
  ];
  for (const [text, message] of cases) {
    await drop(page, "bad.csv", text);
    await page.waitForFunction((m) => document.getElementById("fit-message").textContent.includes(m), message);
    assert.equal(await page.textContent("#fit-record"), before, "the loaded record stays");
    assert.equal(await page.isDisabled("#fit-run"), false);
  }
  assert.deepEqual(problems, []);
});

test("in an opaque-origin sandboxed iframe the Fit panel says whether its worker runs, never fails silently", async () => {
  const embedded = await startServer({ cors: true });
  const host = await startServer({
    root: "/nonexistent",
    extra: {
      "/host.html": {
        type: "text/html; charset=utf-8",
        body: `<!doctype html><html><head><link rel="icon" href="data:,"></head><body style="margin:0">
          <iframe id="lab" src="${embedded.url}?v=1" sandbox="allow-scripts" width="1000" height="700" style="border:0"></iframe></body></html>`,
      },
    },
  });
  try {
    const { page, problems } = await openPage(browser.context, `${host.origin}/host.html`, { allowedOrigins: [host.origin, embedded.origin] });
    const frame = await (await page.waitForSelector("#lab")).contentFrame();
    await frame.waitForFunction(() => document.documentElement.dataset.ready === "1", null, { timeout: 20_000 });
    assert.equal(await frame.evaluate(() => origin), "null");
    await frame.evaluate(() => document.getElementById("fit-toggle").click());
    // either the worker runs (the model list arrives) or the panel says why it cannot
    await frame.waitForFunction(() => document.querySelectorAll("#fit-model option").length > 40 ||
      /Web Worker/.test(document.getElementById("fit-message").textContent), null, { timeout: 20_000 });
    // Chromium refuses a worker to an opaque origin: the panel says so and where to go instead
    assert.match(await frame.textContent("#fit-message"), /open Friction Lab in a tab of its own to fit data/);
    assert.equal(await frame.isVisible("#fit-message"), true);
    assert.deepEqual(problems, []);
  } finally {
    await host.close();
    await embedded.close();
  }
});

test("a record with a column N: the model's F_N follows it, and the report says so", async () => {
  const { page, problems } = await openPage(browser.context, server.url);
  await ready(page);
  // LuGre (σ0 = 5e4, σ1 = 200, μk = 0.12, μs = 0.2) under a load varying ±30 % about 9.81 N
  await loadFixture(page, "lugre_n.csv", 400);
  assert.match(await page.textContent("#fit-record"), /column N: normal load 7\.01 to 12\.8 N/);
  const fnField = '#fit-params tr[data-key="fn"] .fit-value';
  assert.equal(await page.inputValue(fnField), "", "the load field is left to the column");
  assert.equal(await page.getAttribute(fnField, "placeholder"), "from column N");
  await setFree(page, ["sigma0", "sigma1", "muk", "mus"]);
  await page.click("#fit-run");
  await page.waitForSelector("#fit-result:not([hidden])", { timeout: 120_000 });
  assert.equal(await page.isVisible("#fit-load"), true);
  assert.match(await page.textContent("#fit-load"), /F_N from column N: 7\.011 to 12\.75 N, per sample/);
  const rows = await page.$$eval("#fit-table tbody tr", (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  const truth = [0.2, 0.12, 5e4, 200];
  rows.forEach((r, i) => {
    const [lo, hi] = r[3].replace(/[[\]]/g, "").split(",").map(Number);
    assert.ok(lo <= truth[i] && truth[i] <= hi, `${r[0]}: ${r[3]}`);
  });
  // the link carries the record's mean load
  const href = await page.getAttribute("#fit-open", "href");
  assert.equal(Number(new URLSearchParams(href.split("?")[1]).get("fn")).toFixed(2), "10.68");
  await page.locator("#fit-load").scrollIntoViewIfNeeded();
  await screenshot(page, "fit-normal-load.png");

  // a load typed in the field wins over the column, with a warning naming both
  await page.fill(fnField, "9.81");
  await page.click("#fit-run");
  await page.waitForFunction(() => /from the query is used/.test(document.getElementById("fit-verdicts").textContent),
    null, { timeout: 120_000 });
  assert.equal(await page.isHidden("#fit-load"), true);
  assert.match(await page.textContent("#fit-verdicts"), /fn = 9\.81 N from the query is used, not the record's column N/);
  // a free load is refused: the column and the parameter are the same quantity
  await page.check('#fit-params tr[data-key="fn"] .fit-free');
  await page.click("#fit-run");
  await page.waitForFunction(() => /free: fn/.test(document.getElementById("fit-message").textContent), null,
    { timeout: 60_000 });
  assert.match(await page.textContent("#fit-message"), /column N/);

  // example data with a varying load has a column N too
  await page.check("#fit-example-n");
  await page.click("#fit-example");
  await page.waitForFunction(() => /normal load ±30 %/.test(document.getElementById("fit-record").textContent));
  assert.match(await page.textContent("#fit-record"), /column N: normal load/);
  assert.deepEqual(problems, []);
});
