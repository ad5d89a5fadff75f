// Load benchmark (not a test): time from navigation to the first finished drawing
// (`fl-first-loops`) for a few links, on one or more release builds, loads interleaved so that
// a noisy machine affects every build alike; also the wasm bytes each link transferred.
//   node bench/browser/load.mjs [--runs 7] [--dist A --dist B ...] [--link QUERY ...] [--single]
// Without --dist: dist/. Without --link: the default view, relaxation, stick-slip and curve.
// --single also loads each build's single file (friction-lab.html) over http and from file://.
// Build first (`trunk build --release`); this script builds nothing.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { startServer, launch, openPage } from "../../tests/e2e/harness.js";

const all = (name) => process.argv.flatMap((a, i) => (a === `--${name}` ? [process.argv[i + 1]] : []));
const RUNS = Number(all("runs")[0] ?? 7);
const DISTS = all("dist").length ? all("dist").map((d) => path.resolve(d)) : [path.resolve("dist")];
const LINKS = all("link").length ? all("link") : ["", "?view=relaxation", "?view=stickslip", "?view=curve"];
const SINGLE = process.argv.includes("--single");

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

const servers = await Promise.all(DISTS.map((root) => startServer({ root })));
/** What is loaded for a build: the split page, and with --single its one file by http and from disk. */
const targets = DISTS.flatMap((d, i) => [
  { label: d, url: (link) => `${servers[i].url}${link}` },
  ...(SINGLE ? [
    { label: `${d}/friction-lab.html (http)`, url: (link) => `${servers[i].url}friction-lab.html${link}` },
    { label: `${d}/friction-lab.html (file://)`, url: (link) => `${pathToFileURL(path.join(d, "friction-lab.html")).href}${link}` },
  ] : []),
]);
const browser = await launch();
const times = new Map(); // `${target}|${link}` -> [ms]
const bytes = new Map();
try {
  for (let r = 0; r < RUNS; r++) {
    for (const link of LINKS) {
      for (const t of targets) {
        const { page } = await openPage(browser.context, t.url(link));
        await page.waitForFunction(() => document.documentElement.dataset.ready === "1", null, { timeout: 30000 });
        const [ms, wasm] = await page.evaluate(() => [
          performance.getEntriesByName("fl-first-loops")[0].startTime,
          performance.getEntriesByType("resource").filter((e) => e.name.endsWith(".wasm"))
            .reduce((n, e) => n + e.decodedBodySize, 0),
        ]);
        await page.close();
        const k = `${t.label}|${link}`;
        (times.get(k) ?? times.set(k, []).get(k)).push(ms);
        bytes.set(k, wasm);
      }
    }
  }
  for (const link of LINKS) {
    console.log(`link "${link || "(default)"}":`);
    for (const t of targets) {
      const xs = times.get(`${t.label}|${link}`);
      console.log(`  ${t.label}: load -> first drawing median ${median(xs).toFixed(0)} ms (${xs.map((x) => x.toFixed(0)).join(" ")}), wasm fetched ${bytes.get(`${t.label}|${link}`)} B raw`);
    }
  }
} finally {
  await browser.close();
  for (const s of servers) await s.close();
}
