// Browser fuzz run (not a test): loads generated legal links in headless Chromium and reports the
// longest main-thread task per link (Long Tasks API, `PerformanceObserver` type "longtask"),
// whether the page finished (or stopped at its compute budget) within the wait, and any page
// error. Links come from the core's schema through the fuzz example:
//   cargo run --release -p friction-cli --example fuzz -- links 1000 > /tmp/links.txt
//   trunk build --release
//   node bench/browser/fuzz-links.mjs /tmp/links.txt [--wait 30000] [--out bench/results/fuzz-links.tsv] [--page-keys]
// With --page-keys every second link also gets page keys (embed, controls, show, origin, panels,
// lesson), legal or hand-mangled (malformed escapes, markup, unknown keys), chosen from the
// link's line number, so a run is reproducible from the links file alone.
// Exit status 1 when a link had a task over 2 s, did not finish within the wait, or raised an error.
import { readFile, writeFile } from "node:fs/promises";
import { startServer, launch, openPage, waitUntil } from "../../tests/e2e/harness.js";

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const file = process.argv[2];
if (!file) { console.error("usage: node bench/browser/fuzz-links.mjs LINKS_FILE [--wait MS] [--out FILE]"); process.exit(2); }
const WAIT = Number(arg("wait", "30000"));
const OUT = arg("out", "");
const PAGE_KEYS = process.argv.includes("--page-keys");
const links = (await readFile(file, "utf8")).split("\n").filter((l) => l.trim())
  .map((q, i) => (PAGE_KEYS && i % 2 === 1 ? q + pageKeys(i) : q));

/** Page keys for link `i`: each key present with probability 1/2, its value from a list of legal
 * and mangled ones (the page's own keys are read by www/app.js, not by the core's schema). */
function pageKeys(i) {
  let x = (i * 2654435761) >>> 0; // xorshift32 from the line number
  const next = () => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x; };
  const pick = (list) => list[next() % list.length];
  const choices = {
    embed: ["1", "1", "0", "", "%E0"],
    controls: ["0", "1", "%"],
    show: ["mus,freqs", "vb,kspring,model", "nope", "%E0", "%zz,mus", "", "%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E"],
    origin: ["https://course.example.org", "%E0", "null", "javascript:alert(1)", "https://a.example,https://b.example/x"],
    panels: ["1", "5", "2,5", "0", "99", "%E0", "1,1,1", "", "-1", "1e9"],
    lesson: ["1", "0", "%"],
  };
  let s = "";
  for (const [k, vals] of Object.entries(choices)) if (next() % 2) s += `&${k}=${pick(vals)}`;
  return s;
}

// installed before the page's scripts: every long task of the page's life is kept
const OBSERVE = () => {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push(e.duration);
  }).observe({ type: "longtask", buffered: true });
};

const server = await startServer();
const browser = await launch();
const rows = [];
let bad = 0;
const t0 = Date.now();
try {
  for (const [i, q] of links.entries()) {
    const { page, problems } = await openPage(browser.context, `${server.url}?${q}`, { initScript: OBSERVE });
    const start = Date.now();
    let finished = true;
    try {
      // polled by evaluate: waitForFunction would add its injected script's parse to the page's tasks
      await waitUntil(page, () => document.documentElement.dataset.done === "1", null, { timeout: WAIT });
    } catch {
      finished = false;
    }
    const ms = Date.now() - start;
    const { longest, status } = await page.evaluate(() => ({
      longest: Math.max(0, ...(window.__longTasks || [])),
      status: document.getElementById("status")?.hidden ? "" : document.getElementById("status")?.textContent || "",
    }));
    await page.close();
    const err = problems.join(" | ");
    if (longest > 2000 || !finished || err) bad++;
    rows.push({ q, longest, finished, ms, status, err });
    console.log(`${i + 1}/${links.length}\t${longest.toFixed(0)} ms\t${finished ? "done" : "NOT DONE"}\t${ms} ms\t${q}${status ? `\t[${status.slice(0, 120)}]` : ""}${err ? `\tERROR ${err}` : ""}`);
  }
} finally {
  await browser.close();
  await server.close();
}
const sorted = [...rows].sort((a, b) => b.longest - a.longest);
const over = (t) => rows.filter((r) => r.longest > t).length;
console.log(`\n${rows.length} links in ${((Date.now() - t0) / 1000).toFixed(0)} s: longest task ${sorted[0]?.longest.toFixed(0)} ms; ` +
  `tasks > 50 ms on ${over(50)}, > 200 ms on ${over(200)}, > 2 s on ${over(2000)} links; ` +
  `${rows.filter((r) => !r.finished).length} not done within ${WAIT} ms; ` +
  `${rows.filter((r) => r.status.includes("budget")).length} stopped at the page's budget; ${rows.filter((r) => r.err).length} with errors`);
console.log("longest tasks:");
for (const r of sorted.slice(0, 10)) console.log(`  ${r.longest.toFixed(0)} ms  ${r.q}`);
if (OUT) await writeFile(OUT, "longest_ms\tfinished\twait_ms\tquery\tstatus\n" + rows.map((r) => `${r.longest.toFixed(1)}\t${r.finished}\t${r.ms}\t${r.q}\t${r.status}`).join("\n") + "\n");
process.exit(bad ? 1 : 0);
