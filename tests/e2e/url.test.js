// The link in the address bar: the page writes it with history.replaceState at most every
// 250 ms, so a change made just before a reload, a navigation or a tab switch has to be written
// when the page is hidden, or it is lost. A link means the same in any order of its keys.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launch, openPage, pixelHash } from "./harness.js";

let server, browser;
before(async () => {
  server = await startServer();
  browser = await launch();
});
after(async () => { await browser?.close(); await server?.close(); });

async function ready(page) {
  await page.waitForFunction(() => document.documentElement.dataset.ready === "1" && document.documentElement.dataset.done === "1");
}

/** Two changes of v_S in one task: neither is written to the URL yet (it is written once input
 * has been quiet for a while). Returns the link's vs right after them. */
async function twoChanges(page, first, second) {
  // past any earlier URL write (the page's own at load)
  await page.waitForTimeout(300);
  return page.evaluate(([a, b]) => {
    window.frictionLab.change("vs", a, true);
    window.frictionLab.change("vs", b, true);
    return new URLSearchParams(location.search).get("vs");
  }, [first, second]);
}

test("a change made within the URL throttle survives a reload", async () => {
  const { page, problems } = await openPage(browser.context, server.url);
  await ready(page);
  assert.equal(await twoChanges(page, "0.02", "0.03"), null, "the link waits until input is quiet");
  await page.reload();
  await ready(page);
  assert.equal(new URL(page.url()).searchParams.get("vs"), "0.03");
  assert.equal(await page.inputValue("#c-vs-n"), "0.03");
  // a reload from the page's own script, and a navigation away and back
  await twoChanges(page, "0.05", "0.06");
  await page.evaluate(() => location.reload());
  await page.waitForURL((u) => u.searchParams.get("vs") === "0.06");
  await ready(page);
  assert.equal(await page.inputValue("#c-vs-n"), "0.06");
  await twoChanges(page, "0.07", "0.08");
  await page.goto("about:blank");
  await page.goBack();
  await ready(page);
  assert.equal(new URL(page.url()).searchParams.get("vs"), "0.08");
  // the hand-off is used once: a later reload keeps the link as it is
  await page.reload();
  await ready(page);
  assert.equal(new URL(page.url()).searchParams.get("vs"), "0.08");
  assert.deepEqual(problems, []);
});

test("a change made within the URL throttle is in the link as soon as the tab is hidden", async () => {
  const { page, problems } = await openPage(browser.context, server.url);
  await ready(page);
  assert.equal(await twoChanges(page, "0.02", "0.04"), null);
  // hide the page in the same task, before the throttle's timer can run
  const vs = await page.evaluate(() => {
    Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
    document.dispatchEvent(new Event("visibilitychange"));
    return new URLSearchParams(location.search).get("vs");
  });
  assert.equal(vs, "0.04");
  // a default link stays clean when nothing was changed
  const { page: fresh } = await openPage(browser.context, server.url);
  await ready(fresh);
  await fresh.evaluate(() => {
    Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
    document.dispatchEvent(new Event("visibilitychange"));
  });
  assert.equal(new URL(fresh.url()).search, "");
  assert.deepEqual(problems, []);
});

test("a link means the same whatever the order of its keys: same controls, link and pixels", async () => {
  // μ_k before μ_s was refused with μ_s's default (issue 40); the page silently reset μ_k
  const links = ["view=curve&model=lugre&muk=0.5&mus=0.6", "mus=0.6&model=lugre&muk=0.5&view=curve"];
  const seen = [];
  for (const q of links) {
    const { page, problems } = await openPage(browser.context, `${server.url}?${q}`);
    await ready(page);
    assert.equal(await page.isHidden("#messages"), true, `${q}: nothing reset`);
    // "done" is flagged by the frame that finishes the computation; on a loaded machine its
    // paint may land later: the fingerprint is read until two reads a moment apart agree
    const hash = () => pixelHash(page, "#loops");
    let pixels = await hash();
    for (let i = 0; i < 20; i++) {
      await page.waitForTimeout(150);
      const again = await hash();
      if (again === pixels) break;
      pixels = again;
    }
    seen.push({
      query: await page.evaluate(() => window.frictionLab.lab.query()),
      mus: await page.inputValue("#c-mus-n"),
      muk: await page.inputValue("#c-muk-n"),
      pixels,
    });
    assert.deepEqual(problems, []);
    await page.close();
  }
  assert.equal(seen[0].mus, "0.6");
  assert.equal(seen[0].muk, "0.5");
  assert.deepEqual(seen[1], seen[0]);
});

