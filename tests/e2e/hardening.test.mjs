// Hostile links, the content-security policy, accessibility (axe-core) and the keyboard.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startBrowser, open, ROOT } from "./harness.mjs";

const env = startBrowser();

const HOSTILE = [
  ["params=banana", ["params"]],
  ["params=-7B&tokens=-1", ["params", "tokens"]],
  ["params=NaN&tokens=Infinity&tp=nan", ["params", "tokens", "tp"]],
  ["params=1e400&seq-len=1e30", ["params", "seq-len"]],
  ["tp=%ED%95%9C%EA%B8%80&zero=%F0%9F%92%A5", ["tp", "zero"]],
  [`params=${"9".repeat(10000)}`, ["params"]],
  [`${"x".repeat(5000)}=${"y".repeat(5000)}`, ["x"]],
  ["params=7B&params=oops&params=70B", ["params"]],
  ["%ZZ=%&&&=&==&model=gpt-5", ["model"]],
  // 7 GPUs cannot hold t = 2: the degree is refused and named, the 7 GPUs stay.
  ["gpus=7&tp=2", ["tp"]],
  ["lang=klingon&units=furlong&view=nowhere", ["lang", "units", "view"]],
  ["micro-batch=0&grad-accum=0.5&layers=-3", ["micro-batch", "grad-accum", "layers"]],
  ["precision=fp8&optimizer=lion&recompute=sometimes&gpu=tpu", ["precision", "optimizer", "recompute", "gpu"]],
  ["<script>alert(1)</script>=1&params=<img src=x onerror=alert(1)>", ["script", "params"]],
];

test("hostile links render, name the bad keys, and log no error", async () => {
  const { page, context, problems } = await open(env.browser, env.server.base, { origin: env.server.origin });
  for (const [q, keys] of HOSTILE) {
    await page.goto(`${env.server.base}?${q}`);
    await page.waitForSelector('[data-testid="per-gpu-total"]', { state: "attached" });
    const total = await page.getAttribute('[data-testid="per-gpu-total"]', "data-bytes");
    assert.ok(Number(total) > 0, `${q.slice(0, 60)}: a result is shown`);
    const notice = (await page.$('[data-testid="url-errors"]')) ? await page.textContent('[data-testid="url-errors"]') : "";
    for (const k of keys) assert.ok(notice.includes(k), `${q.slice(0, 60)}: names ${k} in "${notice.slice(0, 200)}"`);
    if (keys.length === 0) assert.ok(await page.isVisible('[data-testid="config-error"]'), `${q}: explains the combination`);
    assert.equal(await page.$$eval("img", (i) => i.length), 0, "no markup from the URL");
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test("the page carries a content-security policy and talks only to its origin", async () => {
  const html = fs.readFileSync(path.join(ROOT, "dist/index.html"), "utf8");
  const csp = html.match(/http-equiv="Content-Security-Policy" content="([^"]+)"/)?.[1] ?? "";
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'self' 'sha256-[^']+' 'sha256-[^']+' 'wasm-unsafe-eval'/);
  assert.doesNotMatch(csp, /https?:/, "no other origin allowed");
  assert.ok(fs.readdirSync(path.join(ROOT, "dist")).every((f) => !f.endsWith(".map")));
  // open() records every request that leaves the serving origin as a problem.
  const { page, context, problems } = await open(env.browser, `${env.server.base}?model=llama-3-405b&view=sweeps`, { origin: env.server.origin });
  await page.waitForTimeout(300);
  assert.deepEqual(problems, []);
  await context.close();
});

test("the wasm exports only what its glue reads, and the two use short names", () => {
  const dist = path.join(ROOT, "dist");
  const wasm = fs.readdirSync(dist).find((f) => f.endsWith("_bg.wasm"));
  const glue = fs.readFileSync(path.join(dist, wasm.replace(/_bg\.wasm$/, ".js")), "utf8");
  const module = new WebAssembly.Module(fs.readFileSync(path.join(dist, wasm)));
  const exports = WebAssembly.Module.exports(module).map((e) => e.name);
  const imports = WebAssembly.Module.imports(module);
  assert.ok(imports.length > 100, `${imports.length} imports`);
  for (const name of exports) assert.match(glue, new RegExp(`\\.${name.replace("$", "\\$")}\\b`), `export ${name} is read by the glue`);
  // wasm-bindgen's names carry 16 hex digits of hash; post-build replaces them
  // (a snippet's module name stays: it is its key in the glue's import object).
  for (const name of [...exports, ...imports.map((i) => i.name)]) assert.doesNotMatch(name, /[0-9a-f]{16}/, `${name} is shortened`);
  assert.ok(imports.filter((i) => !i.module.startsWith("./snippets/")).every((i) => i.module === "w"));
  assert.equal(WebAssembly.Module.customSections(module, "producers").length, 0);
  // The panic guard's snippet is folded into the glue: no request of its own.
  assert.ok(!fs.existsSync(path.join(dist, "snippets")), "dist/ has no snippets/");
  assert.doesNotMatch(fs.readFileSync(path.join(dist, "index.html"), "utf8"), /snippets\//);
});

const AXE = fs.readFileSync(path.join(ROOT, "node_modules/axe-core/axe.min.js"), "utf8");

async function axe(url, opts = {}) {
  const { page, context, problems } = await open(env.browser, url, { origin: env.server.origin, bypassCSP: true, ...opts });
  await page.evaluate(AXE);
  const result = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) }));
  });
  await context.close();
  return { violations: result.filter((v) => v.impact === "serious" || v.impact === "critical"), problems };
}

for (const [name, q, opts] of [
  ["default", "?lang=en", {}],
  ["a configuration that does not fit", "?model=llama-2-70b&dp=8&zero=3&lang=en", {}],
  ["Korean", "?lang=ko", {}],
  ["dark mode", "?lang=ko", { colorScheme: "dark" }],
]) {
  test(`axe-core: no serious or critical violation (${name})`, async () => {
    const { violations, problems } = await axe(`${env.server.base}${q}`, opts);
    assert.deepEqual(violations, []);
    assert.deepEqual(problems, []);
  });
}

test("every control is reachable by keyboard with a visible focus ring", async () => {
  const { page, context, problems } = await open(env.browser, `${env.server.base}?lang=en`, { origin: env.server.origin });
  const controls = await page.$$eval("input[name], select[name]", (els) => els.filter((e) => e.checkVisibility()).map((e) => e.name));
  const reached = new Set();
  for (let i = 0; i < 400 && reached.size < controls.length; i++) {
    await page.keyboard.press("Tab");
    const info = await page.evaluate(() => {
      const e = document.activeElement;
      const s = getComputedStyle(e);
      return { name: e.getAttribute("name"), outline: s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 2 };
    });
    if (info.name) {
      assert.ok(info.outline, `${info.name} shows a focus ring`);
      reached.add(info.name);
    }
  }
  assert.deepEqual(controls.filter((c) => !reached.has(c)), [], "controls never reached by Tab");
  // A value typed at the keyboard takes effect.
  await page.focus('input[name="params"]');
  await page.keyboard.press("Control+A");
  await page.keyboard.type("13B");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelector('[data-testid="part-model"]').dataset.bytes === "26000000000");
  assert.deepEqual(problems, []);
  await context.close();
});

// The size-optimised build aborts on a panic without a Rust hook: the wasm traps
// and a WebAssembly.RuntimeError reaches JavaScript, where the guard replaces the
// frozen app with a message in the page's language and a way back to the defaults.
test("a trap in the wasm leaves a message and a link back, not a frozen page", async () => {
  for (const [lang, text] of [["ko", "계산기 안에서 문제가 생겼습니다."], ["en", "Something went wrong inside the calculator."]]) {
    const { page, context } = await open(env.browser, `${env.server.base}?lang=${lang}`, { origin: env.server.origin });
    await page.waitForSelector('[data-testid="per-gpu-total"]');
    // An ordinary script error is not the app's: the page stays.
    await page.evaluate(() => dispatchEvent(new ErrorEvent("error", { error: new TypeError("someone else's") })));
    assert.equal(await page.locator('[data-testid="per-gpu-total"]').count(), 1);
    await page.evaluate(() => dispatchEvent(new ErrorEvent("error", { error: new WebAssembly.RuntimeError("unreachable") })));
    const alert = page.locator('[role="alert"].panic');
    await alert.waitFor();
    assert.match(await alert.innerText(), new RegExp(text));
    assert.equal(await alert.locator("a").getAttribute("href"), "?");
    assert.equal(await page.locator('[data-testid="per-gpu-total"]').count(), 0);
    await context.close();
  }
});
