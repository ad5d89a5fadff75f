// The force-driven block's views: breakaway force against force rate with two models overlaid,
// and pre-sliding displacement with the waveform as a named choice.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launch, openPage, screenshot, countColour } from "./harness.js";

const PALETTE = [[0x00, 0x72, 0xb2], [0xd5, 0x5e, 0x00]];

let server, browser;
before(async () => {
  server = await startServer();
  browser = await launch({ viewport: { width: 1366, height: 768 } });
});
after(async () => { await browser?.close(); await server?.close(); });

const ready = (page) => page.waitForFunction(() => document.documentElement.dataset.ready === "1" && document.documentElement.dataset.done === "1", null, { timeout: 120_000 });
const rowsOf = (page) => page.$$eval("#readout-table tbody tr", (r) => r.map((tr) => [...tr.children].map((c) => c.textContent)));

test("breakaway against force rate: both models drawn, a row per model and rate, the definition shown", async () => {
  const { page, problems } = await openPage(browser.context, `${server.url}?view=breakaway&model=lugre,dahl`);
  await ready(page);
  assert.equal(await page.getAttribute("#tab-breakaway", "aria-selected"), "true");
  for (const [i, rgb] of PALETTE.entries()) {
    const n = await countColour(page, "#loops", rgb, 30);
    assert.ok(n > 100, `curve colour ${i + 1} (${n} px)`);
  }
  const rows = await rowsOf(page);
  assert.equal(rows.length, 24, "12 rates for each of the two models");
  const lugre = rows.filter((r) => r[0].startsWith("LuGre")).map((r) => Number(r[2]));
  assert.equal(lugre.length, 12);
  assert.ok(lugre.every((f, i) => i === 0 || f < lugre[i - 1]), `LuGre falls with the rate: ${lugre}`);
  assert.ok(rows.filter((r) => r[0].startsWith("Dahl")).every((r) => Math.abs(Number(r[2]) - 0.981) < 1e-3));
  assert.equal(await page.textContent("#readout-caption"), "Breakaway force per model and rate");
  const notes = await page.textContent("#readout-notes");
  assert.match(notes, /maximum friction force value/);
  assert.match(notes, /Dahl.*had no peak/);
  // the displacement panel says on the chart why Dahl has no curve there: dark grey text inside
  // its plot area (right of its axis, below its caption, above the x axis), where LuGre alone
  // leaves 0 such pixels (grid lines are lighter, the curve blue); the SVG export, drawn by the
  // same code, carries the words
  const text = await countColour(page, "#plot", [0x44, 0x44, 0x44], 40, [0.66, 0.115, 1, 0.75]);
  assert.ok(text > 40, `note drawn in the displacement panel (${text} px)`);
  const svg = await page.evaluate(() => window.frictionLab.lab.exportSvg(900, 560, ""));
  assert.match(svg, /Dahl: F has no peak, so no x_b/);
  await screenshot(page, "breakaway.png");
  assert.deepEqual(problems, []);
});

test("pre-sliding: LuGre's displacement against force, the waveform a named choice", async () => {
  const { page, problems } = await openPage(browser.context, `${server.url}?view=presliding&model=lugre`);
  await ready(page);
  assert.ok(await countColour(page, "#loops", PALETTE[0], 30) > 100, "LuGre's curves drawn");
  const rows = await rowsOf(page);
  assert.equal(rows.length, 1);
  // initial stiffness of the first loading: LuGre's σ0 = 1e5 N/m, a little less at u0/10 = 0.12 N
  const k = Number(rows[0][1]);
  assert.ok(k > 8e4 && k < 1.01e5, `du/dx = ${rows[0][1]}`);
  const options = await page.$$eval("#c-wave option", (o) => o.map((e) => e.textContent));
  assert.deepEqual(options, ["sine", "triangle"]);
  await screenshot(page, "presliding.png");
  await page.selectOption("#c-wave", "1");
  await page.waitForURL(/wave=1/);
  await ready(page);
  assert.equal((await rowsOf(page)).length, 1);
  assert.deepEqual(problems, []);
});

test("a tab and a link without model= open breakaway on the 1995 LuGre beside Dahl; a link naming its models keeps them", async () => {
  const { page, problems } = await openPage(browser.context, server.url);
  await ready(page);
  await page.click("#tab-breakaway");
  await page.waitForURL(/view=breakaway/);
  await ready(page);
  // the view's example: no model= in the link, LuGre and Dahl in the model fields
  assert.doesNotMatch(page.url(), /model=/);
  assert.equal(await page.evaluate(() => window.frictionLab.lab.get("model")), "lugre,dahl");
  // Canudas de Wit et al. 1995: F_N = 10 N (F_C = 1 N, F_s = 1.5 N), σ2 = 0.4 N·s/m
  assert.equal(await page.evaluate(() => window.frictionLab.lab.get("fn")), "10");
  assert.equal(await page.evaluate(() => window.frictionLab.lab.get("sigma2")), "0.4");
  const rows = await rowsOf(page);
  assert.equal(rows.length, 24, "12 rates for each of the two models");
  // LuGre's breakaway force falls with the rate between F_s and F_C: the effect the view is about
  const f = rows.filter((r) => r[0].startsWith("LuGre")).map((r) => Number(r[2]));
  assert.equal(f.length, 12);
  assert.ok(f.every((x, i) => x > 1 && x < 1.5 && (i === 0 || x < f[i - 1])), `F_b ${f}`);
  assert.ok(await countColour(page, "#loops", PALETTE[0], 30) > 100, "LuGre's curves drawn");
  assert.ok(await countColour(page, "#loops", PALETTE[1], 30) > 100, "Dahl's curve drawn");
  // a link without model= shows the same example
  const { page: link } = await openPage(browser.context, `${server.url}?v=1&view=breakaway`);
  await ready(link);
  assert.deepEqual(await rowsOf(link), rows);
  // a link that names the models runs them at their registry defaults (F_C = 0.981 N)
  const { page: named } = await openPage(browser.context, `${server.url}?v=1&view=breakaway&model=lugre,dahl`);
  await ready(named);
  const dahl = (await rowsOf(named)).filter((r) => r[0].startsWith("Dahl")).map((r) => Number(r[2]));
  assert.ok(dahl.every((x) => Math.abs(x - 0.981) < 1e-3), `${dahl}`);
  assert.match(named.url(), /model=lugre,dahl/);
  assert.deepEqual(problems, []);
});

test("the readout's definitions read as text, its warnings in the warning colour", async () => {
  const { page, problems } = await openPage(browser.context, `${server.url}?view=breakaway`);
  await ready(page);
  const items = await page.$$eval("#readout-notes li", (lis) => lis.map((li) => [li.className, li.textContent, getComputedStyle(li).color]));
  const ink = await page.evaluate(() => getComputedStyle(document.body).color);
  const def = items.find(([k, t]) => k === "def" && /maximum friction force value/.test(t));
  const warn = items.find(([k, t]) => k === "warn" && /Dahl.*had no peak/.test(t));
  assert.ok(def && warn, JSON.stringify(items));
  assert.equal(def[2], ink, "a definition in the text colour");
  assert.notEqual(warn[2], ink, "a warning keeps the warning colour");
  assert.deepEqual(problems, []);
});
