// Issue 40: where a host allows scripts, one module (embed.js) serves every
// figure of its page. Another site's page, on another origin, holds figures
// of several views and languages: each mounts in its own shadow root with its
// own state and the core's numbers; a control moves its own figure only; the
// host's address, title, language and styles stay the host's.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { startBrowser, serve, open, tmathJson, ensureArtifacts, chartBars, PART_KEYS } from "./harness.mjs";

const env = startBrowser();

/** Another site's page: its own styles on what a figure also holds, and one script for all figures. */
function hostPage(figures, script) {
  const divs = figures.map((q, i) => `<h2>Figure ${i}</h2>\n<div data-tmath="${q.replaceAll("&", "&amp;")}" style="min-height:600px;max-width:720px"></div>`);
  return `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Un article</title><link rel="icon" href="data:,">
<style>h1, p, div, span, a { color: rgb(255, 0, 0) !important; font-size: 31px; } svg { display: none; } :root { --fg: rgb(0, 128, 0); } html { font-size: 10px; }</style></head>
<body><h1>Un article</h1><p>Texte de l'hôte.</p>
${divs.join("\n")}
<script type="module" src="${script}"></script>
<!-- A second figure's snippet pasted whole brings the same script again: a module runs once per page. -->
<script type="module" src="${script}"></script>
<script>
  // A page its own script renders: one more figure arrives after the module has run.
  setTimeout(() => {
    const late = document.createElement("section");
    late.innerHTML = '<div data-tmath="view=chinchilla&amp;lang=ko" style="min-height:530px;max-width:720px"></div>';
    document.body.append(late);
  }, 1500);
</script></body></html>`;
}

test("one module serves every figure of another site's page: own state, the core's bytes, the host untouched", async () => {
  const host = await serve("/blog/");
  const memory = [["model", "llama-2-13b"], ["gpus", "8"], ["zero", "3"]];
  const memoryEn = [["params", "7500000000"], ["gpus", "64"], ["zero", "1"]];
  const figures = [
    new URLSearchParams([["embed", "1"], ["view", "memory"], ["lang", "ko"], ...memory]).toString(),
    new URLSearchParams([["view", "memory"], ["lang", "en"], ...memoryEn]).toString(),
    "view=compute&lang=ko",
    // A key the link cannot take: a notice in that figure, the others unaffected.
    "view=memory&lang=en&zero=9",
  ];
  host.pages.set("/blog/post.html", hostPage(figures, `${env.server.base}embed.js`));
  try {
    await hostedFigures(host, figures, memory, memoryEn);
  } finally {
    host.close();
  }
});

async function hostedFigures(host, figures, memory, memoryEn) {
  // Two origins serve this page: no request is foreign here.
  const { page, context, problems } = await open(env.browser, `${host.base}post.html`, { ready: "[data-tmath]" });
  // Playwright's CSS selectors pierce open shadow roots.
  await page.waitForFunction((n) => [...document.querySelectorAll("[data-tmath]")].filter((h) => h.shadowRoot?.querySelector(".figure-title")).length >= n, figures.length);
  await page.waitForSelector('[data-tmath] [data-testid="memory-chart"] rect[data-bytes]');

  // The figure the page added after the module ran mounts too.
  await page.waitForFunction(() => document.querySelector('section [data-tmath]')?.shadowRoot?.querySelector(".figure-title"), null, { timeout: 10000 });
  const hosts = await page.$$("[data-tmath]");
  for (const [i, pairs] of [[0, memory], [1, memoryEn]]) {
    const core = tmathJson(pairs);
    const want = Object.fromEntries(PART_KEYS.map((k, j) => [String(j), core.per_gpu_bytes[k]]).filter(([, b]) => b > 0));
    const [training] = await chartBars(hosts[i], "memory-chart");
    assert.deepEqual(training, want, `figure ${i}: the core's bytes`);
  }
  // One figure in each element, though the script is on the page twice.
  const counts = await page.$$eval("[data-tmath]", (hs) => hs.map((h) => h.shadowRoot.querySelectorAll(".figure").length));
  assert.deepEqual(counts, [...figures, "late"].map(() => 1));
  // Each figure in its own language, on its own root.
  const langs = await page.$$eval("[data-tmath]", (hs) => hs.map((h) => h.shadowRoot.querySelector(".tmath-root").lang));
  assert.deepEqual(langs, ["ko", "en", "ko", "en", "ko"]);
  assert.match(await hosts[0].$eval(".figure-title", (e) => e.textContent), /GPU당 메모리/);
  assert.match(await hosts[1].$eval(".figure-title", (e) => e.textContent), /Memory per GPU/);
  // The bad key is that figure's notice; the host page shows no error.
  assert.ok((await hosts[3].$$(".notice")).length > 0, "zero=9 is said in its figure");

  // The host's styles do not reach the figure, nor the figure's the host.
  const look = await page.evaluate(() => {
    const root = document.querySelectorAll("[data-tmath]")[0].shadowRoot;
    return {
      title: getComputedStyle(root.querySelector(".figure-title")).color,
      svg: getComputedStyle(root.querySelector("svg.plot")).display,
      // 1.08rem in the stylesheet: a frame's 16 px rem, not the host's 10 px.
      titleSize: getComputedStyle(root.querySelector(".figure-title")).fontSize,
      hostH1: getComputedStyle(document.querySelector("h1")).color,
      hostFont: getComputedStyle(document.querySelector("p")).fontSize,
    };
  });
  assert.notEqual(look.title, "rgb(255, 0, 0)", "the host's colour stays outside");
  assert.notEqual(look.svg, "none", "the host's svg rule stays outside");
  assert.equal(look.titleSize, "17.28px", "the title's size is the frame's, whatever the host's root font size");
  assert.deepEqual([look.hostH1, look.hostFont], ["rgb(255, 0, 0)", "31px"], "the figure's stylesheet stays inside");

  // A control moves its own figure only, and never the host's address, title or language.
  const before = await Promise.all(hosts.map((h) => h.$eval(".figure", (f) => f.textContent)));
  const slider = await hosts[0].$('input[type="range"][data-key="seq-len"]');
  assert.ok(slider, "the memory figure's sequence-length slider");
  await slider.evaluate((s) => {
    s.value = String(Number(s.value) + 20);
    s.dispatchEvent(new Event("input", { bubbles: true }));
  });
  await page.waitForFunction((t) => document.querySelector("[data-tmath]").shadowRoot.querySelector(".figure").textContent !== t, before[0]);
  await page.waitForTimeout(400);
  const after = await Promise.all(hosts.map((h) => h.$eval(".figure", (f) => f.textContent)));
  assert.notEqual(after[0], before[0]);
  assert.deepEqual(after.slice(1), before.slice(1), "the other figures keep their state");
  assert.equal(new URL(page.url()).search, "", "the host's address");
  assert.equal(await page.title(), "Un article");
  assert.equal(await page.evaluate(() => document.documentElement.lang), "fr");

  // "Open the full calculator" leads to the calculator, in the figure's state now.
  const full = new URL(await hosts[1].$eval('[data-testid="open-full"]', (a) => a.href));
  assert.equal(full.origin + full.pathname, env.server.base);
  for (const [k, v] of [...memoryEn, ["lang", "en"]]) assert.equal(full.searchParams.get(k), v, `${k} in ${full}`);
  assert.equal(full.searchParams.get("embed"), null);

  await hosts[0].screenshot({ path: path.join(ensureArtifacts(), "module-figure-ko.png") });
  assert.deepEqual(problems, []);
  await context.close();
}

test("the module's demo page (figures-module.html): lazy figures mount as the reader nears them, at their frames' heights", async () => {
  const { page, context, problems } = await open(env.browser, `${env.server.base}figures-module.html`, {
    origin: env.server.origin,
    viewport: { width: 390, height: 844 },
    ready: "[data-tmath]",
  });
  await page.waitForSelector("[data-tmath] .figure-title");
  await page.waitForTimeout(300);
  const mounted = () => page.$$eval("[data-tmath]", (hs) => hs.map((h) => !!h.shadowRoot));
  const first = await mounted();
  assert.equal(first.length, 13);
  assert.ok(first[0] && !first.at(-1), `near figures first, far ones later: ${first}`);
  // Scrolled down, each figure mounts before it reaches the screen, and none is cut: its height is at least the frame's.
  const total = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0; y < total; y += 700) {
    await page.evaluate((y) => scrollTo(0, y), y);
    await page.waitForTimeout(120);
  }
  await page.waitForFunction(() => [...document.querySelectorAll("[data-tmath]")].every((h) => h.shadowRoot?.querySelector(".figure-title")));
  const sizes = await page.$$eval("[data-tmath]", (hs) =>
    hs.map((h) => [parseFloat(h.style.minHeight), h.shadowRoot.querySelector(".figure").getBoundingClientRect().height, h.scrollWidth - h.clientWidth]),
  );
  for (const [i, [frame, figure, over]] of sizes.entries()) {
    assert.ok(Math.abs(figure - frame) <= 1, `figure ${i}: ${figure} px in a ${frame} px frame's place`);
    assert.equal(over, 0, `figure ${i} overflows sideways`);
  }
  assert.deepEqual(problems, []);
  await context.close();
});
