// Writes friction-lab.html: the whole lab in one file, for offline use and for an LMS that takes
// an HTML file but not a folder (issue 37). Run by scripts/course-kit.sh on Trunk's staged build:
//   node scripts/single-file.mjs STAGING_DIR
//
// What goes in, all inline, so the file makes no request at all (its CSP says connect-src 'none'):
// - the stylesheets (style.css, fit.css, explain/explain.css);
// - the module with every view as wasm-bindgen's classic bindings with the wasm as base64
//   (friction-web-full-<hash>-classic.js, written by scripts/classic-build.sh), started by boot.js
//   (its inline path);
// - the lessons (explain/lessons.json) and the Fit panel's worker (its classic glue, its wasm as
//   base64, fit-worker.js) in `window.frictionLabInline`: lesson.js reads the lessons from there,
//   fit.js makes its worker from a blob URL of that code;
// - boot.js and embed-api.js as they are (classic scripts), and app.js, fit.js and the explain
//   modules (with the print sheet's QR encoder) bundled by esbuild into one classic script at the
//   end of the body: an inline module could not import the others from file://.
// Every inline script is allowed by its hash in the file's Content-Security-Policy.
import { readFileSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const esbuild = createRequire(path.join(ROOT, "tools/package.json"))("esbuild");
const dir = path.resolve(process.argv[2] ?? path.join(ROOT, "dist"));
const read = (f) => readFileSync(path.join(dir, f), "utf8");
const index = read("index.html");

/** The staged file an index.html tag names, e.g. the hashed boot-<hash>.js. */
function staged(pattern, what) {
  const m = pattern.exec(index);
  if (!m) throw new Error(`single-file: index.html names no ${what}`);
  return m[1].replace(/^\.\//, "");
}
const css = [...index.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1].replace(/^\.\//, ""));
const boot = staged(/<script src="([^"]*boot-[^"]+\.js)"/, "boot.js");
const embedApi = staged(/<script src="([^"]*embed-api-[^"]+\.js)"/, "embed-api.js");
const app = staged(/<script src="([^"]*app-[^"]+\.js)"[^>]*type="module"/, "app.js");
const fit = staged(/<script src="([^"]*fit-[^"]+\.js)"[^>]*type="module"/, "fit.js");
const full = staged(/<meta name="friction-lab-full" content="([^"]+)\.js">/, "second module");

// app.js (which imports the explain modules on start) and fit.js, in the order the page runs them
const bundle = await esbuild.build({
  stdin: { contents: `import "./${app}";\nimport "./${fit}";\n`, resolveDir: dir, sourcefile: "single-file-entry.js" },
  bundle: true,
  format: "iife",
  write: false,
  minify: true,
  legalComments: "inline",
  target: "es2022",
  // the modules' own URL is used only where the single file does not go (a stylesheet it
  // carries, the lessons it carries): the page's address stands in for it
  define: { "import.meta.url": "document.baseURI" },
  logLevel: "warning",
});
const bundled = bundle.outputFiles[0].text;

/** A JS string literal that cannot end the <script> element holding it. */
const literal = (text) => JSON.stringify(text).replace(/<\//g, "<\\/");
const b64 = (f) => readFileSync(path.join(dir, f)).toString("base64");

const inline = `// the single file's own copies of what the split build fetches (scripts/single-file.mjs)
window.frictionLabInline = {
  lessons: ${read("explain/lessons.json").trim().replace(/<\//g, "<\\/")},
  fitWorkerUrl() {
    this.fitUrl ??= URL.createObjectURL(new Blob([
      ${literal(read("friction-fit-web.js"))},
      "\\nself.frictionFitWasm = Uint8Array.from(atob(" + ${literal(JSON.stringify(b64("friction-fit-web_bg.wasm")))} + "), (c) => c.charCodeAt(0));\\n",
      ${literal(read("fit-worker.js"))},
    ], { type: "text/javascript" }));
    return this.fitUrl;
  },
  viewWorkerUrl() {
    // the page's classic bindings (their wasm comes from the page, as a compiled module)
    this.viewUrl ??= URL.createObjectURL(new Blob([
      ${literal(read(`${full}-classic.js`))},
      "\\n",
      ${literal(read("view-worker.js"))},
    ], { type: "text/javascript" }));
    return this.viewUrl;
  },
};
`;

const scripts = {
  wasm: read(`${full}-classic.js`),
  inline,
  boot: read(boot),
  embedApi: read(embedApi),
  bundle: bundled,
};
for (const [name, text] of Object.entries(scripts)) {
  if (/<\/script/i.test(text)) throw new Error(`single-file: the ${name} script contains "</script"`);
}
const hash = (text) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
const csp = [
  "default-src 'none'",
  `script-src ${Object.values(scripts).map(hash).join(" ")} 'wasm-unsafe-eval'`,
  "style-src 'unsafe-inline'",
  "img-src data: blob:",
  "connect-src 'none'",
  "worker-src blob:",
  // the Embed panel's preview frames this file itself
  "frame-src 'self' file: blob:",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

const description = /<meta name="description" content="([^"]*)">/.exec(index)?.[1] ?? "";
const body = /<body>([\s\S]*)<\/body>/.exec(index)?.[1];
if (!body) throw new Error("single-file: index.html has no body");
const styles = css.map((f) => `<style>\n${read(f)}</style>`).join("\n");
const tag = (text) => `<script>${text}</script>`;

const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<!-- Friction Lab in one file: every view, the lessons, the fit and the exports, with no server
     and no network. Written by scripts/single-file.mjs from a build; do not edit. -->
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Friction Lab</title>
<meta name="description" content="${description}">
<link rel="icon" href="data:,">
${styles}
<style id="explain-css">
${read("explain/explain.css")}</style>
${tag(scripts.wasm)}
${tag(scripts.inline)}
${tag(scripts.boot)}
${tag(scripts.embedApi)}
</head>
<body>${body}${tag(scripts.bundle)}
</body>
</html>
`;
writeFileSync(path.join(dir, "friction-lab.html"), html);
console.log(`single-file: friction-lab.html ${Buffer.byteLength(html)} bytes`);
