// Walking skeleton: the release build loads its wasm and draws a labelled curve on the canvas.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launch, openPage, screenshot, countColour, distinctColours } from "./harness.js";

let server, browser;
before(async () => { server = await startServer(); browser = await launch({ deviceScaleFactor: 2 }); });
after(async () => { await browser?.close(); await server?.close(); });

test("page loads the wasm module and draws the Stribeck curve crisply", async () => {
  const { page, problems } = await openPage(browser.context, server.url);
  await page.waitForFunction(() => document.getElementById("status")?.textContent.includes("Stribeck"));
  const size = await page.evaluate(() => { const c = document.getElementById("plot"); return [c.width, c.clientWidth]; });
  assert.equal(size[0], size[1] * 2, "backing store = CSS width × devicePixelRatio");
  // Okabe–Ito blue (#0072B2) in the plot area, and a non-uniform background (axes, text).
  const blue = await countColour(page, "#plot", [0x00, 0x72, 0xb2], 30, [0.1, 0.1, 0.95, 0.9]);
  assert.ok(blue > 500, `curve colour present in the plot area (${blue} px)`);
  assert.ok(await distinctColours(page, "#plot") > 5, "canvas is not uniform");
  await screenshot(page, "skeleton.png");
  assert.deepEqual(problems, []);
});

test("a broken wasm module gives a readable message, not a blank page", async () => {
  const { page } = await openPage(browser.context, server.url);
  await page.route("**/*.wasm", (r) => r.fulfill({ status: 404, body: "gone" }));
  await page.reload();
  await page.waitForFunction(() => document.getElementById("status")?.className === "error");
  const text = await page.textContent("#status");
  assert.match(text, /could not start/);
});
