// Frame-time benchmark (not a test): drives 200 keyboard steps of the v_S slider on the release
// build in dist/ and reports, per step, the time from the input event to the canvas redrawn
// (performance measures set by the page), plus load-to-first-loops.
//   node bench/browser/frames.mjs [--dpr 1|2] [--steps 200] [--key vs]
// Build first (`trunk build --release`); this script builds nothing.
import { startServer, launch, openPage } from "../../tests/e2e/harness.js";

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const DPR = Number(arg("dpr", "1"));
const STEPS = Number(arg("steps", "200"));
const KEY = arg("key", "vs");

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { n: s.length, median: q(0.5), p95: q(0.95), max: s[s.length - 1] };
};
const fmt = (o) => `median ${o.median.toFixed(2)} ms, p95 ${o.p95.toFixed(2)} ms, max ${o.max.toFixed(2)} ms (n = ${o.n})`;

const server = await startServer();
const browser = await launch({ deviceScaleFactor: DPR });
try {
  const loads = [];
  let page, problems;
  for (let i = 0; i < 5; i++) {
    ({ page, problems } = await openPage(browser.context, server.url));
    await page.waitForFunction(() => document.documentElement.dataset.ready === "1");
    loads.push(await page.evaluate(() => performance.getEntriesByName("fl-first-loops")[0].startTime));
    if (i < 4) await page.close();
  }
  await page.evaluate(() => { window.frictionLabBench = true; performance.clearMeasures(); });
  await page.focus(`#c-${KEY}-r`);
  for (let i = 0; i < STEPS; i++) {
    // up for half the steps, down for the other half: stays inside the slider's range
    const key = i < STEPS / 2 ? "ArrowRight" : "ArrowLeft";
    const n = i + 1;
    await page.keyboard.press(key);
    await page.waitForFunction((n) => performance.getEntriesByName("fl-input-to-painted").length >= n, n);
    // let the refinement (if any) finish so every step starts from a settled page
    await page.waitForFunction(() => document.documentElement.dataset.done === "1");
  }
  const drawn = await page.evaluate(() => performance.getEntriesByName("fl-input-to-drawn").map((m) => m.duration));
  const painted = await page.evaluate(() => performance.getEntriesByName("fl-input-to-painted").map((m) => m.duration));
  const get = (name) => page.evaluate((n) => performance.getEntriesByName(n).map((m) => m.duration), name);
  const [controls, frame, tick] = [await get("fl-controls"), await get("fl-frame"), await get("fl-tick")];
  const loadStats = stats(loads);
  console.log(`Friction Lab frame times, ${STEPS} keyboard steps of ${KEY}, devicePixelRatio ${DPR}, default three loops`);
  console.log(`  input → canvas redrawn (draw calls done, on the page or in the painter):  ${fmt(stats(drawn))}`);
  // with a painter this is the page's frame after it *heard* of the drawing, a frame after the
  // worker's canvas went to the compositor; bench/browser/display-latency.mjs times the screen
  console.log(`  input → after the page's next frame:      ${fmt(stats(painted))}`);
  console.log(`  work in the frame (tick: controls + compute + draw + read-out): ${fmt(stats(tick))}`);
  console.log(`    of which controls sync ${fmt(stats(controls))}`);
  console.log(`    of which Lab.frame (compute + draw) ${fmt(stats(frame))}`);
  console.log(`  load → first complete loops (5 loads):     median ${loadStats.median.toFixed(0)} ms, max ${loadStats.max.toFixed(0)} ms`);
  if (problems.length) console.log("  problems:", problems);
} finally {
  await browser.close();
  await server.close();
}
