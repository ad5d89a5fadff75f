// The prescribed-motion and frequency-sweep views on the page: three models overlaid (LuGre,
// GMS, FrBD-GM) draw their loops in their palette colours in three panels with one legend, the
// readout has a row per model; a sweep fills its four panels and judges the trends.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launch, openPage, screenshot, countColour } from "./harness.js";

// friction_plot::PALETTE, first three entries (Okabe–Ito)
const PALETTE = [[0x00, 0x72, 0xb2], [0xd5, 0x5e, 0x00], [0x00, 0x9e, 0x73]];

let server, browser;
before(async () => {
  server = await startServer();
  browser = await launch({ viewport: { width: 1366, height: 768 } });
});
after(async () => { await browser?.close(); await server?.close(); });

const ready = (page) => page.waitForFunction(() => document.documentElement.dataset.ready === "1" && document.documentElement.dataset.done === "1", null, { timeout: 60_000 });
const readoutRows = (page) => page.$$eval("#readout-table tbody tr", (rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));

test("three models overlaid: each model's colour in the loops and the legend, a readout row each", async () => {
  const { page, problems } = await openPage(browser.context, `${server.url}?view=prescribed&model=lugre,gms,frbd-gm`);
  await ready(page);
  for (const [i, rgb] of PALETTE.entries()) {
    const curve = await countColour(page, "#loops", rgb, 30);
    assert.ok(curve > 200, `model ${i + 1}: ${curve} curve pixels`);
    // the legend band above the panels, on the background canvas
    const legend = await countColour(page, "#plot", rgb, 30, [0, 0, 1, 0.15]);
    assert.ok(legend > 10, `model ${i + 1}: ${legend} legend pixels`);
  }
  const rows = await readoutRows(page);
  assert.equal(rows.length, 3);
  assert.deepEqual(rows.map((r) => r[0]), ["LuGre", "Generalized Maxwell-Slip", "FrBD-GM"]);
  for (const r of rows) assert.ok(Number(r[1]) > 0 && Number(r[2]) < 0, `peak and min force: ${r}`);
  assert.match(await page.textContent("#readout-notes"), /FrBD-GM: stepped by the hysteresis view's integrator/);
  const status = await page.evaluate(() => document.getElementById("status").hidden);
  assert.ok(status, "no error shown");
  await screenshot(page, "prescribed.png");
  assert.deepEqual(problems, []);
});

test("a sweep of the FrBD model fills its four panels and reads Fig. 3's trends", async () => {
  const q = "view=sweep&model=frbd-gm&k0=54500&k1=10000&vmean=0.015&fmin=25&fmax=75&nf=7";
  const { page, problems } = await openPage(browser.context, `${server.url}?${q}`);
  await ready(page);
  assert.ok(await countColour(page, "#loops", PALETTE[0], 30) > 200, "sweep curves drawn");
  const rows = await readoutRows(page);
  assert.equal(rows.length, 1);
  // peak force falls, loop area grows, no loop with negative area (the letter's σ0 = k̄1 reading)
  assert.deepEqual(rows[0].slice(4), ["falls", "rises", "none"]);
  assert.match(await page.textContent("#readout-notes"), /Inverted loops are not reproduced/);
  await screenshot(page, "sweep.png");
  assert.deepEqual(problems, []);
});
