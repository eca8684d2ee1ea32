// Trunk post-build hook, on the staging directory (one script: trunk runs the
// hooks of a stage at the same time, and these steps must run in order).
// 1. The wasm exports only what its glue uses, and the two call each other by
//    short names (scripts/wasm-interface.mjs). Leptos always builds
//    server_fn's browser client, whose wasm-streams dependency exports three
//    stream classes to JavaScript; nothing here streams, so their classes
//    leave the glue first, then their exports (and the code only they reach).
//    wasm-bindgen's `inline_js` snippet (the panic guard) joins the glue: one
//    request fewer.
// 2. Minifies the glue (terser) and the stylesheet (comments and whitespace
//    only); drops index.html's comments. Trunk's own minifier fails on the glue.
// 3. Updates the integrity hashes, and pins a Content-Security-Policy into
//    index.html that allows only the site's own files, plus trunk's one inline
//    loader by its hash. Nothing else may run, load or connect: no fonts,
//    analytics or CDNs.
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { minify } from "terser";
import { FEATURE_FLAGS, renameInGlue, shrinkInterface, usedExports } from "./wasm-interface.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// The dead classes: IntoUnderlyingByteSource, IntoUnderlyingSink, IntoUnderlyingSource.
const DEAD = "IntoUnderlying";
const dir = process.env.TRUNK_STAGING_DIR ?? process.argv[2];
const file = path.join(dir, "index.html");
let html = fs.readFileSync(file, "utf8");

/** Stylesheet minification that cannot change a rule: drops comments and
 * collapses whitespace outside strings; spaces next to `{`, `}`, `;`, `,` and `>`
 * go, and the space after a colon. Comments and strings are found in one pass,
 * whichever opens first: an apostrophe in a comment ("the header's") is not a
 * string (it was, and everything after it up to the next one stayed unminified). */
function minifyCss(css) {
  const strings = /("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')/;
  return css
    .split(new RegExp(`${strings.source.slice(0, -1)}|\\/\\*[\\s\\S]*?\\*\\/)`))
    .map((part, i) => (i % 2 && part.startsWith("/*") ? " " : part))
    .join("")
    .split(strings)
    .map((part, i) =>
      // A space after a colon never matters ("a: b", "(max-width: 9px)"); one before
      // it can (".x :hover" is not ".x:hover"), so that one stays.
      i % 2
        ? part
        : part
            .replace(/\s+/g, " ")
            .replace(/\s*([{};,>])\s*/g, "$1")
            .replace(/: /g, ":"),
    )
    .join("")
    .replaceAll(";}", "}")
    .trim();
}

/** The site's stylesheet for a figure in a shadow root (embed.js): what
 * `:root`, `html` and `body` hold goes on the shadow root's host and on the
 * figure's root (`.tmath-root`, a size container), and a width query asks
 * that root's width, not the host window's (a figure in a 720 px column of a
 * wide screen lays out as a 720 px frame would), and a rem is a frame's 16 px
 * whatever the host's root font size. Each rewrite must find its
 * rule: a stylesheet that changed under it fails the build, not the figures. */
function embedCss(css) {
  const rewrites = [
    [/:root\b/g, ":host"],
    [/^html, body \{/gm, ".tmath-root {"],
    [/^body \{/gm, ".tmath-root {"],
    [/:lang\(ko\) body\b/g, ".tmath-root:lang(ko)"],
    [/html:has\(\.figure\)/g, ".tmath-root"],
    [/@media \(max-width:/g, "@container (max-width:"],
    // A rem is the host's root font size in a shadow root, not the 16 px a frame's page has:
    // the figure's sizes stay a frame's on a host that sets html { font-size: 62.5% }.
    [/(\d*\.?\d+)rem\b/g, (_, n) => `${+(Number(n) * 16).toFixed(3)}px`],
  ];
  for (const [from, to] of rewrites) {
    if (!css.match(from)) throw new Error(`styles/app.css: embedCss's ${from} matches nothing`);
    css = css.replace(from, to);
  }
  const left = css.replace(/\/\*[\s\S]*?\*\//g, "").match(/(^|[\s,}>])(html|body|:root)(?=[\s,{:.[>])/);
  if (left) throw new Error(`styles/app.css: a rule on ${left[2]} that embedCss does not move`);
  return `${css}\n:host { display: block; }\n.tmath-root { container-type: inline-size; }\n`;
}

/** figures.html served by one module (figures-module.html): each frame
 * `<iframe src="./?Q" … height="H" …>` becomes the module's snippet at the
 * frame's place and size (`<div data-tmath="Q" data-loading="lazy"
 * style="min-height:Hpx;max-width:720px">`, as the embed dialog gives it),
 * the frames' own paragraph and height script give way to the module's
 * paragraph, and the page loads embed.js once. */
function moduleFigures(html) {
  const out = html
    .replace(
      /<iframe src="\.\/\?([^"]*)"[^>]*? height="(\d+)"[^>]*><\/iframe>/g,
      (_, q, h) => `<div data-tmath="${q}" data-loading="lazy" style="min-height:${h}px;max-width:720px"></div>`,
    )
    .replace(".module-only { display: none; }", ".frames-only { display: none; }")
    .replace(/<script data-frames-only>[\s\S]*?<\/script>/, '<script type="module" src="embed.js"></script>');
  if (/<iframe |data-frames-only|module-only \{/.test(out) || !out.includes('src="embed.js"')) {
    throw new Error("public/figures.html: moduleFigures could not rewrite every frame, its paragraph and its script");
  }
  return out;
}

/** wasm-bindgen's glue without the `DEAD…` classes: each `export class X {`
 * … `}` at the start of a line, its `Symbol.dispose` line and its
 * `const XFinalization = … ;` registry. */
function dropDeadClasses(js) {
  const names = [...js.matchAll(new RegExp(`^export class (${DEAD}\\w*) \\{$`, "gm"))].map((m) => m[1]);
  if (names.length === 0) throw new Error(`wasm-bindgen glue has no ${DEAD}… class: update DEAD in scripts/post-build.mjs`);
  for (const name of names) {
    const start = js.indexOf(`export class ${name} {`);
    const end = js.indexOf("\n}\n", start);
    js = js.slice(0, start) + js.slice(end + 3);
    js = js.replace(`if (Symbol.dispose) ${name}.prototype[Symbol.dispose] = ${name}.prototype.free;\n`, "");
    const registry = js.indexOf(`const ${name}Finalization = `);
    if (registry < 0) throw new Error(`wasm-bindgen glue has no ${name}Finalization`);
    js = js.slice(0, registry) + js.slice(js.indexOf(";\n", registry) + 2);
  }
  return js;
}

async function shrink(rel, text) {
  if (rel.endsWith(".css")) return minifyCss(text);
  const out = await minify(text, { module: true, ecma: 2020, compress: { passes: 2 }, mangle: true });
  if (!out.code) throw new Error(`terser returned nothing for ${rel}`);
  return out.code;
}

/** The glue with each `import * as X from "./snippets/…"` replaced by the
 * snippet's functions in a `const X = {…}`; the snippet files and their
 * preload links go. Only modules made of `export function`s qualify. */
function inlineSnippets(js) {
  return js.replace(/^import \* as (\w+) from "\.\/(snippets\/[^"]+\.js)";?$/gm, (_, name, rel) => {
    const snippet = path.join(dir, rel);
    const code = fs.readFileSync(snippet, "utf8");
    const names = [...code.matchAll(/^export function (\w+)/gm)].map((m) => m[1]);
    if (names.length === 0 || /^\s*(import\b|export (?!function ))/m.test(code)) {
      throw new Error(`${rel} is not a module of exported functions; post-build cannot inline it`);
    }
    const link = new RegExp(`<link [^>]*href="\\./${rel.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"[^>]*>\\s*`);
    if (!link.test(html)) throw new Error(`index.html has no preload link for ${rel}`);
    html = html.replace(link, "");
    fs.rmSync(path.dirname(snippet), { recursive: true });
    if (fs.readdirSync(path.join(dir, "snippets")).length === 0) fs.rmdirSync(path.join(dir, "snippets"));
    const body = code.replace(/^export function /gm, "function ");
    return `const ${name} = (() => {\n${body}\nreturn { __proto__: null, ${names.join(", ")} };\n})();`;
  });
}

const sri = (bytes) => "sha384-" + crypto.createHash("sha384").update(bytes).digest("base64");
/** Replaces the integrity hash of the tag that loads `rel`. */
function setHash(rel, bytes) {
  const at = html.indexOf(`href="./${rel}"`);
  const tagEnd = html.indexOf(">", at);
  const hashAt = html.indexOf('integrity="sha384-', at);
  if (at < 0 || hashAt < 0 || hashAt > tagEnd) throw new Error(`index.html has no integrity hash for ${rel}`);
  const hashEnd = html.indexOf('"', hashAt + 'integrity="'.length);
  html = html.slice(0, hashAt) + `integrity="${sri(bytes)}` + html.slice(hashEnd);
}

// 1. The wasm's interface.
const wasm = fs.readdirSync(dir).find((f) => f.endsWith("_bg.wasm"));
const wasmPath = path.join(dir, wasm);
const glue = wasm.replace(/_bg\.wasm$/, ".js");
const gluePath = path.join(dir, glue);
const wasmBefore = fs.statSync(wasmPath).size;
const glueJs = inlineSnippets(dropDeadClasses(fs.readFileSync(gluePath, "utf8")));
const { bytes: small, renames } = shrinkInterface(fs.readFileSync(wasmPath), usedExports(glueJs));
if (renames.imports.size === 0) throw new Error("the wasm imports nothing from its glue: did wasm-bindgen's output change?");
fs.writeFileSync(wasmPath, small);
fs.writeFileSync(gluePath, renameInGlue(glueJs, renames));
// -Oz again: the dropped exports' code goes. Flattening and re-looping first
// lets -Oz find about 1.1 KB (gzipped) more, for about 12 s (measured).
execFileSync(path.join(ROOT, "node_modules/.bin/wasm-opt"), [...FEATURE_FLAGS, "--flatten", "--rereloop", "-Oz", "-Oz", wasmPath, "-o", wasmPath]);
setHash(wasm, fs.readFileSync(wasmPath));
console.log(
  `post-build: ${wasm} ${wasmBefore} → ${fs.statSync(wasmPath).size} bytes; ` +
    `${renames.imports.size} imports and ${renames.exports.size} exports renamed`,
);

// 1b. The module that serves figures to other pages (public/embed.js, where
// the site has one): the glue's and the wasm's names in place of GLUE and
// WASM, and embed-<hash>.css, the site's stylesheet for a figure in a shadow
// root (embedCss); embed.js keeps its name: hosts link to it. And its demo
// page, figures-module.html (moduleFigures).
const embedJs = path.join(dir, "embed.js");
if (fs.existsSync(embedJs)) {
  const appCss = fs.readdirSync(dir).find((f) => /^app-[0-9a-f]+\.css$/.test(f));
  if (!appCss) throw new Error("no app-<hash>.css beside embed.js: did trunk's output change?");
  const sheet = appCss.replace(/^app-/, "embed-");
  const css = embedCss(fs.readFileSync(path.join(dir, appCss), "utf8"));
  fs.writeFileSync(path.join(dir, sheet), minifyCss(css));
  let js = fs.readFileSync(embedJs, "utf8");
  for (const [from, to] of [["./GLUE.js", `./${glue}`], ["./WASM", `./${wasm}`], ['"embed.css"', `"${sheet}"`]]) {
    if (!js.includes(from)) throw new Error(`public/embed.js has no ${from}`);
    js = js.replace(from, to);
  }
  fs.writeFileSync(embedJs, await shrink("embed.js", js));
  const figures = path.join(dir, "figures.html");
  fs.writeFileSync(path.join(dir, "figures-module.html"), moduleFigures(fs.readFileSync(figures, "utf8")));
  console.log(`post-build: embed.js and ${sheet} (${Buffer.byteLength(css)} bytes before minifying)`);
}

// 2. Every local script and stylesheet index.html names with an integrity hash.
const refs = [...html.matchAll(/href="\.\/([^"]+\.(?:js|css))"[^>]*?integrity="sha384-[^"]+"/g)].map((m) => m[1]);
if (!refs.includes(glue)) throw new Error(`index.html names no hashed ${glue}: did trunk's output change?`);
for (const rel of refs) {
  const asset = path.join(dir, rel);
  const before = fs.readFileSync(asset, "utf8");
  const after = await shrink(rel, before);
  fs.writeFileSync(asset, after);
  setHash(rel, Buffer.from(after));
  console.log(`post-build: ${rel} ${Buffer.byteLength(before)} → ${Buffer.byteLength(after)} bytes`);
}
html = html.replace(/<!--[\s\S]*?-->\s*/g, "");

// 3. The policy: the inline scripts (trunk's loader, a module, and on the
// site's page the skeleton's language picker), each allowed by its hash; an
// inline script the pattern does not read would be blocked, so none may exist.
const scripts = [...html.matchAll(/<script(?: type="module")?>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
const inline = (html.match(/<script(?![^>]*\bsrc=)[^>]*>/g) ?? []).length;
if (scripts.length === 0 || scripts.length !== inline) throw new Error(`${inline} inline scripts, ${scripts.length} of them pinned`);
const hashes = scripts.map((s) => `'sha256-${crypto.createHash("sha256").update(s).digest("base64")}'`);
const policy = [
  "default-src 'none'",
  `script-src 'self' ${hashes.join(" ")} 'wasm-unsafe-eval'`,
  // Leptos and the charts set style attributes.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  // The embed dialog previews the figure in a frame of the site itself.
  "frame-src 'self'",
  "manifest-src 'self'",
  "base-uri 'self'",
  "form-action 'none'",
  "object-src 'none'",
].join("; ");
const meta = `<meta http-equiv="Content-Security-Policy" content="${policy}" />`;
html = html.replace(/<meta charset="utf-8" \/>/, (m) => `${m}\n    ${meta}`);
if (!html.includes(meta)) throw new Error("no <meta charset> to anchor the policy");
fs.writeFileSync(file, html);
console.log(`post-build: pinned the inline scripts ${hashes.join(" ")}`);
