// The page's two wasm modules (issue 18, point 4): the default view starts on the small first
// module (the FrBD letter's views) within the 250 KB gzip budget; a link to another view loads
// the module with every view instead, and a tab, Back or the embed API fetches it once, the
// first time one asks for a view the first module leaves out.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { gzipSync } from "node:zlib";
import path from "node:path";
import { DIST, startServer, launch, openPage, distinctColours } from "./harness.js";

/** The size budget of the first module, gzip -9 (issue 18). */
const FIRST_MODULE_GZIP_MAX = 250_000;

let server, browser;
before(async () => {
  server = await startServer();
  browser = await launch();
});
after(async () => { await browser?.close(); await server?.close(); });

const isFirst = (u) => /\/friction-web-[0-9a-f]+_bg\.wasm$/.test(u);
const isFull = (u) => /\/friction-web-full-[0-9a-f]+_bg\.wasm$/.test(u);

const open = (query) => openPage(browser.context, `${server.url}${query}`);

/** The wasm files the page fetched so far, by module. */
const fetchedModules = (page) => page.evaluate(() => performance.getEntriesByType("resource")
  .map((e) => e.name).filter((n) => n.endsWith(".wasm") && !/fit-web/.test(n))
  .map((n) => (/friction-web-full-/.test(n) ? "full" : "first")));

/** Waits until the page shows `view`, finished. */
async function shows(page, view) {
  await page.waitForFunction((v) => window.frictionLab?.lab.view() === v
    && document.documentElement.dataset.done === "1" && !window.frictionLab.pending.size, view);
}

test("the first module is within 250 KB gzip; the second has every view and is larger", async () => {
  const files = await readdir(DIST);
  const first = files.filter((f) => isFirst(`/${f}`));
  const full = files.filter((f) => isFull(`/${f}`));
  assert.equal(first.length, 1, `one first module in dist/: ${first}`);
  assert.equal(full.length, 1, `one second module in dist/: ${full}`);
  const gz = async (f) => gzipSync(await readFile(path.join(DIST, f)), { level: 9 }).length;
  const [a, b] = [await gz(first[0]), await gz(full[0])];
  console.log(`first module ${a} B gzip, second ${b} B gzip`);
  assert.ok(a <= FIRST_MODULE_GZIP_MAX, `first module ${a} B gzip > ${FIRST_MODULE_GZIP_MAX}`);
  assert.ok(b > a, "the module with every view is the larger one");
  const html = await readFile(path.join(DIST, "index.html"), "utf8");
  assert.ok(html.includes(`<meta name="friction-lab-full" content="${full[0].replace(/_bg\.wasm$/, ".js")}">`),
    "index.html names the second module by its hashed file");
});

test("the default view runs on the first module alone; a tab to another view fetches the second once; Back returns", async () => {
  const { page, problems } = await open("?v=1&vs=0.02&mus=0.5");
  await shows(page, "hysteresis");
  // the page has finished: nothing else is on its way
  await page.waitForTimeout(300);
  assert.deepEqual(await fetchedModules(page), ["first"], "the default view never touches the second module");
  // the loader's list of the first module's views is the module's own
  const listed = await page.evaluate(() => document.querySelector('meta[name="friction-lab-first-views"]').content.split(","));
  assert.deepEqual(listed, await page.evaluate(() => window.wasmBindings.viewsInBuild()));
  // every view is offered, also those of the second module
  const views = await page.evaluate(() => [...document.querySelectorAll("#tabs [role=tab]")].map((b) => b.dataset.view));
  assert.equal(views.length, 10);
  await page.click("#tab-stickslip");
  await shows(page, "stickslip");
  assert.match(page.url(), /view=stickslip/);
  // the state carried over as the core carries it in one module: the second module's own
  // switch from the same link gives the same link
  const direct = await page.evaluate(() => {
    const lab = new window.wasmBindings.Lab("v=1&vs=0.02&mus=0.5");
    lab.set("view", "stickslip");
    const q = lab.query();
    lab.free();
    return q;
  });
  assert.equal(new URL(page.url()).search, `?${direct}`);
  assert.equal(await page.getAttribute("#tab-stickslip", "aria-selected"), "true");
  assert.ok(await distinctColours(page, "#loops") > 3, "the stick-slip runs are drawn");
  assert.equal(await page.isVisible("#status"), false, "no loading note left behind");
  await page.click("#tab-curve");
  await shows(page, "curve");
  await page.goBack();
  await shows(page, "stickslip");
  await page.goBack();
  await shows(page, "hysteresis");
  await page.click("#tab-relaxation");
  await shows(page, "relaxation");
  assert.deepEqual(await fetchedModules(page), ["first", "full"], "the second module is fetched once");
  assert.deepEqual(problems, []);
});

test("a link to a view of the second module loads that module only and draws the view, with the link's values", async () => {
  const { page, problems } = await open("?v=1&view=curve&model=lugre,dahl&vmax=0.5");
  await shows(page, "curve");
  assert.deepEqual(await fetchedModules(page), ["full"]);
  assert.equal(await page.evaluate(() => window.frictionLab.lab.get("model")), "lugre,dahl");
  assert.equal(await page.evaluate(() => window.frictionLab.lab.errors().length), 0);
  assert.ok(await distinctColours(page, "#loops") > 3, "the curves are drawn");
  // the first module's own views still work on the second
  await page.click("#tab-hysteresis");
  await shows(page, "hysteresis");
  assert.deepEqual(problems, []);
});

test("a link to the first module's other view loads the first module only", async () => {
  const { page, problems } = await open("?v=1&view=relaxation");
  await shows(page, "relaxation");
  assert.deepEqual(await fetchedModules(page), ["first"]);
  assert.deepEqual(problems, []);
});

test("a bad view name is explained, whichever module the loader picks for it", async () => {
  const { page, problems } = await open("?v=1&view=nonsense");
  await shows(page, "hysteresis");
  const errs = await page.evaluate(() => window.frictionLab.lab.errors());
  assert.equal(errs.length, 1);
  assert.equal(errs[0].key, "view");
  assert.match(errs[0].reason, /allowed: hysteresis, relaxation, robot, curve, explorer, stickslip/);
  assert.equal((await fetchedModules(page)).length, 1, "one module");
  assert.deepEqual(problems, []);
});

test("when the second module cannot be fetched, the page says so, keeps working, and a later click retries", async () => {
  const { page, problems } = await open("?v=1");
  await shows(page, "hysteresis");
  await page.route(/friction-web-full-/, (r) => r.abort());
  await page.click("#tab-stickslip");
  await page.waitForFunction(() => /could not be loaded/.test(document.getElementById("status").textContent));
  assert.equal(await page.isVisible("#status"), true);
  assert.equal(await page.evaluate(() => window.frictionLab.lab.view()), "hysteresis");
  assert.equal(await page.getAttribute("#tab-hysteresis", "aria-selected"), "true");
  assert.equal(await page.inputValue("#view-select"), "hysteresis", "the menu shows the view still shown");
  assert.doesNotMatch(page.url(), /view=stickslip/, "the link still says what is shown");
  // the first module's views still answer
  await page.click("#tab-relaxation");
  await shows(page, "relaxation");
  await page.unroute(/friction-web-full-/);
  await page.click("#tab-stickslip");
  await shows(page, "stickslip");
  assert.equal(await page.isVisible("#status"), false, "the message goes with the cause");
  // the refused requests themselves are the only errors
  assert.deepEqual(problems.filter((p) => !/net::ERR_FAILED/.test(p)), []);
});
