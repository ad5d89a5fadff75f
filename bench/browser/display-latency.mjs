// Display-latency benchmark (not a test): keyboard steps of the default view's v_S slider, and
// for each the time from the key press to the first screencast frame (the compositor's output,
// CDP Page.startScreencast) whose plot region differs from the frame before the press. Unlike
// frames.mjs, which times when the page's own code has drawn (or heard that its painter has), this
// times what reaches the screen, whichever thread drew it. Node's clock and the frames' timestamps
// are the same wall clock.
//   DIST_DIR=$(realpath dist) node bench/browser/display-latency.mjs [--steps 12]
import { startServer, launch, openPage } from "../../tests/e2e/harness.js";
const i = process.argv.indexOf("--steps");
const STEPS = i > 0 ? Number(process.argv[i + 1]) : 12;
const server = await startServer();
const b = await launch({ viewport: { width: 1280, height: 900 } });
const { page } = await openPage(b.context, server.url);
await page.waitForFunction(() => document.documentElement.dataset.done === "1");
await page.waitForTimeout(500);
const box = await page.locator("#plot-box").boundingBox();
const decoder = await b.context.newPage();
const cdp = await b.context.newCDPSession(page);
const frames = [];
cdp.on("Page.screencastFrame", async (f) => { frames.push({ t: f.metadata.timestamp * 1000, data: f.data }); await cdp.send("Page.screencastFrameAck", { sessionId: f.sessionId }).catch(() => {}); });
await cdp.send("Page.startScreencast", { format: "png", everyNthFrame: 1 });
await page.focus("#c-vs-r");
await page.waitForTimeout(500);
const keys = [];
for (let i = 0; i < STEPS; i++) { keys.push(Date.now()); await page.keyboard.press(i % 2 ? "ArrowLeft" : "ArrowRight"); await page.waitForTimeout(400); }
await cdp.send("Page.stopScreencast");
// hash of the plot region of each frame (decoded in another page)
const hashes = [];
for (const f of frames) {
  hashes.push(await decoder.evaluate(async ({ data, box }) => {
    const img = await createImageBitmap(await (await fetch("data:image/png;base64," + data)).blob());
    const s = img.width / innerWidth; const c = new OffscreenCanvas(img.width, img.height); const x = c.getContext("2d"); x.drawImage(img, 0, 0);
    const d = x.getImageData(Math.round((box.x + 10) * s), Math.round((box.y + 40) * s), Math.round((box.width - 20) * s), Math.round((box.height - 80) * s)).data;
    let h = 2166136261; for (let i = 0; i < d.length; i += 3) h = Math.imul(h ^ d[i], 16777619); return h >>> 0;
  }, { data: f.data, box }));
}
const lat = [];
for (const k of keys) {
  const before = frames.findLastIndex((f) => f.t < k);
  const h0 = before >= 0 ? hashes[before] : null;
  const j = frames.findIndex((f, i) => f.t >= k && hashes[i] !== h0);
  if (j >= 0) lat.push(frames[j].t - k);
}
lat.sort((a, b) => a - b);
console.log(process.env.DIST_DIR ?? "dist", "frames", frames.length, "key → plot changed on screen (ms):", lat.map((x) => x.toFixed(0)).join(" "), "median", lat[Math.floor(lat.length / 2)]?.toFixed(0));
await b.close(); await server.close(); process.exit(0);
