// Trunk post-build hook: pins a Content-Security-Policy into index.html that
// allows only the site's own files, plus trunk's one inline loader by its hash.
// Nothing else may run, load or connect: no fonts, analytics or CDNs.
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";

const dir = process.env.TRUNK_STAGING_DIR ?? process.argv[2];
const file = path.join(dir, "index.html");
let html = fs.readFileSync(file, "utf8");
const scripts = [...html.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)].map((m) => m[1]);
if (scripts.length !== 1) throw new Error(`expected one inline loader script, found ${scripts.length}`);
const hash = crypto.createHash("sha256").update(scripts[0]).digest("base64");
const policy = [
  "default-src 'none'",
  `script-src 'self' 'sha256-${hash}' 'wasm-unsafe-eval'`,
  // Leptos and the charts set style attributes.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'self'",
  "form-action 'none'",
  "object-src 'none'",
].join("; ");
const meta = `<meta http-equiv="Content-Security-Policy" content="${policy}" />`;
html = html.replace(/<meta charset="utf-8" \/>/, (m) => `${m}\n    ${meta}`);
if (!html.includes(meta)) throw new Error("no <meta charset> to anchor the policy");
fs.writeFileSync(file, html);
console.log(`csp: pinned the loader script sha256-${hash}`);
