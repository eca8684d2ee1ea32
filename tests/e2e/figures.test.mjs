// Figures for the article (`embed=1&view=V`): their size in a 720 px column
// and at 360 and 390 px, the embed dialog's snippet, and the reference host page,
// where every frame must size itself without a jump when the reader scrolls.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startBrowser, open, ensureArtifacts, VIEWS, PROJECT_VIEWS, ROOT } from "./harness.mjs";

const env = startBrowser();

/** Measures the figure on `page`: its height and the height it holds, its charts, its controls, any horizontal scroll, its link. */
async function measure(page) {
  return page.evaluate(() => {
    const fig = document.querySelector(".figure");
    return {
      height: document.body.getBoundingClientRect().height,
      fixed: parseFloat(getComputedStyle(fig).getPropertyValue("--figure-height")),
      figure: fig.getBoundingClientRect().height,
      scroll: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      // A control and the one that stands in for it (layout::STANDS_IN) are one place: the shown one counts.
      controls: [...document.querySelectorAll(".figure-controls .field")].filter((f) => f.getClientRects().length > 0).length,
      href: document.querySelector('[data-testid="open-full"]')?.href,
      chrome: !!document.querySelector("header.top, .summary, .teaching"),
      // A table cell whose right edge is past the window: its column cannot be read.
      offRight: [...document.querySelectorAll("td, th")]
        .filter((c) => !c.closest(".sr-only") && c.getBoundingClientRect().width > 0 && c.getBoundingClientRect().right > innerWidth + 1)
        .map((c) => c.textContent.trim().slice(0, 20)),
      cut: [...document.querySelectorAll("svg.plot text")].map((t) => t.textContent).filter((t) => t.includes("…")),
      charts: [...document.querySelectorAll(".chart svg.plot")].map((c) => c.getBoundingClientRect().height),
    };
  });
}

// Issue 27: a host that strips scripts gives a figure its snippet's height at
// any width; at 360 px the compute figure lost its last controls. Every figure
// now holds one height from 360 to 720 px, and on a phone an article view's
// chart keeps at least 40 % of it (180 px strips in 540–713 px figures before).
test("every figure holds its height from 360 to 720 px; on a phone the chart keeps 40 % of it", async () => {
  const dir = ensureArtifacts();
  for (const width of [720, 390, 360]) {
    for (const lang of ["ko", "en"]) {
      const context = await env.browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      const problems = [];
      page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
      page.on("pageerror", (e) => problems.push(e.message));
      for (const view of VIEWS) {
        await page.goto(`${env.server.base}?embed=1&view=${view}&lang=${lang}&model=llama-2-13b&gpus=8&zero=3`);
        await page.waitForSelector(".figure");
        await page.waitForTimeout(150);
        const m = await measure(page);
        const what = `${view} at ${width} px (${lang})`;
        assert.ok(m.height <= m.fixed + 1, `${what}: ${m.height} px of figure in its ${m.fixed} px: the snippet would cut it`);
        assert.ok(m.scroll <= 0, `${what}: ${m.scroll} px of horizontal scroll`);
        assert.ok(m.controls <= 6, `${what}: ${m.controls} controls`);
        assert.equal(m.chrome, false, `${what}: no site chrome`);
        assert.ok(m.charts.every((h) => h >= 150), `${what}: every chart has room (${m.charts})`);
        // Issue 41: a chart's label wraps or moves; a word or a number is never cut short.
        assert.deepEqual(m.cut, [], `${what}: labels cut`);
        // Issue 41: a figure's table fits its column (the floating-point and planner tables at 390 px).
        assert.deepEqual(m.offRight, [], `${what}: table cells past the edge`);
        if (!PROJECT_VIEWS.has(view) && width === 390) {
          const share = Math.max(...m.charts) / m.figure;
          assert.ok(share >= 0.4, `${what}: the chart is ${(100 * share).toFixed(0)} % of the figure`);
        }
        // The link opens the full calculator on the same state.
        const full = new URL(m.href);
        assert.equal(full.searchParams.get("embed"), null, what);
        assert.equal(full.searchParams.get("view"), null, what);
        for (const [k, v] of [["model", "llama-2-13b"], ["gpus", "8"], ["zero", "3"], ["lang", lang]]) {
          assert.equal(full.searchParams.get(k), v, `${what}: ${k} in ${m.href}`);
        }
        if (lang === "ko" || width === 390) {
          await page.setViewportSize({ width, height: Math.ceil(m.height) });
          await page.screenshot({ path: path.join(dir, `figure-${view}-${width}-${lang}.png`) });
          await page.setViewportSize({ width, height: 900 });
        }
      }
      assert.deepEqual(problems, []);
      await context.close();
    }
  }
});

// Issue 38: with GRPO the fine-tuning figure shows the phases alone, whole in its height on a
// phone, and the response's tokens stand in for the sequence length, which GRPO does not read.
test("the GRPO figure holds its height and offers the response's tokens, not the sequence length", async () => {
  const q = "embed=1&view=finetune&model=qwen2.5-7b&gpu=h100-80gb&finetune=lora&post-training=grpo&rollouts=8&prompt-tokens=512&response-tokens=1024";
  for (const width of [720, 390, 360]) {
    for (const lang of ["ko", "en"]) {
      const { page, context, problems } = await open(env.browser, `${env.server.base}?${q}&lang=${lang}`, {
        origin: env.server.origin,
        viewport: { width, height: 900 },
        ready: ".figure",
      });
      await page.waitForSelector('[data-testid="finetune-phases-chart"]');
      await page.waitForTimeout(150);
      const m = await measure(page);
      const what = `GRPO at ${width} px (${lang})`;
      assert.ok(m.height <= m.fixed + 1, `${what}: ${m.height} px of figure in its ${m.fixed} px`);
      assert.ok(await page.locator('[data-field="response-tokens"]').isVisible(), `${what}: response-tokens shown`);
      assert.equal(await page.locator('[data-field="seq-len"]').isVisible(), false, `${what}: seq-len hidden`);
      assert.equal(await page.locator('[data-testid="finetune-chart"]').count(), 0, `${what}: the phases alone`);
      assert.deepEqual(problems, []);
      await context.close();
    }
  }
});

test("the figure's link opens the full calculator with the same numbers", async () => {
  const q = "model=llama-2-70b&seq-len=4096&gpus=16&zero=3&recompute=full&lang=en";
  const { page, context, problems } = await open(env.browser, `${env.server.base}?embed=1&view=memory&${q}`, {
    origin: env.server.origin,
    viewport: { width: 720, height: 700 },
  });
  const inFigure = await page.getAttribute('[data-testid="per-gpu-total"]', "data-bytes");
  const href = await page.getAttribute('[data-testid="open-full"]', "href");
  assert.equal(await page.getAttribute('[data-testid="open-full"]', "target"), "_blank");
  await page.goto(href);
  await page.waitForSelector("header.top");
  await page.waitForSelector('[data-testid="per-gpu-total"]', { state: "attached" });
  assert.equal(await page.getAttribute('[data-testid="per-gpu-total"]', "data-bytes"), inFigure);
  assert.deepEqual(problems, []);
  await context.close();
});

/** A host page at another origin (as a blog is): frames far below the fold, never scrolled to. */
test("a figure reports its height from a cross-origin frame that is off-screen", async () => {
  const context = await env.browser.newContext({ viewport: { width: 900, height: 700 } });
  const page = await context.newPage();
  const views = ["memory", "chinchilla", "sweeps"];
  const frames = views
    .map((v) => `<iframe id="${v}" src="${env.server.base}?embed=1&view=${v}&lang=ko" width="720" height="150" style="border:0"></iframe>`)
    .join("");
  // Served as localhost: another origin (and site) than the frames' 127.0.0.1.
  env.server.pages.set(
    "/blog/",
    `<!doctype html><body style="margin:0"><div style="height:4000px">intro</div>${frames}<script>
      window.reports = {};
      addEventListener("message", (e) => {
        for (const f of document.querySelectorAll("iframe")) if (f.contentWindow === e.source) (window.reports[f.id] ??= []).push(e.data.height);
      });</script></body>`,
  );
  await page.goto(`http://localhost:${env.server.port}/blog/`);
  assert.notEqual(new URL(page.url()).origin, env.server.origin);
  await page.waitForFunction((n) => Object.keys(window.reports).length === n, views.length, { timeout: 15000 });
  await page.waitForTimeout(800);
  const reports = await page.evaluate(() => window.reports);
  assert.deepEqual(reports.memory, [640], "the memory figure's height, once");
  assert.deepEqual(reports.chinchilla, [530]);
  assert.equal(reports.sweeps.length, 1, `one report from the sweeps: ${reports.sweeps}`);
  assert.equal(await page.evaluate(() => scrollY), 0, "never scrolled");
  await context.close();
});

test("every view of the full page has an embed button; the snippet carries the state, the language and the height", async () => {
  const q = "model=llama-2-13b&gpus=8&zero=3&lang=en";
  const context = await env.browser.newContext({ viewport: { width: 1360, height: 1000 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const page = await context.newPage();
  const problems = [];
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  await page.goto(`${env.server.base}?${q}`);
  await page.waitForSelector('[data-testid="per-gpu-total"]', { state: "attached" });
  const buttons = await page.$$eval("section[data-view]", (s) => s.map((e) => [e.dataset.view, !!e.querySelector('[data-testid="embed-code"]')]));
  assert.deepEqual(buttons.map(([v]) => v).sort(), [...VIEWS].sort());
  assert.ok(buttons.every(([, has]) => has), JSON.stringify(buttons));

  await page.click('section[data-view="memory"] [data-testid="embed-code"]');
  const snippet = page.locator('[data-testid="embed-snippet"]');
  await snippet.waitFor();
  // The live preview beside it reports the figure's height.
  await page.waitForFunction(() => document.querySelector('[data-testid="embed-snippet"]').dataset.height !== "");
  const code = await snippet.inputValue();
  assert.match(code, /^<iframe src="[^"]+" title="Memory per GPU · Transformer Math calculator" width="100%" height="640" loading="lazy"/);
  const src = new URL(code.match(/src="([^"]+)"/)[1].replaceAll("&amp;", "&"));
  for (const [k, v] of [["embed", "1"], ["view", "memory"], ["lang", "en"], ["model", "llama-2-13b"], ["gpus", "8"], ["zero", "3"]]) {
    assert.equal(src.searchParams.get(k), v, `${k} in ${src}`);
  }
  assert.ok(await page.isVisible('[data-testid="embed-preview"]'));
  await page.click('[data-testid="embed-copy"]');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), code);
  // Beneath it, the module's snippet (issue 40): the same state and height, and the site's embed.js.
  const moduleCode = await page.inputValue('[data-testid="embed-module-snippet"]');
  const [, data, minHeight, script] = moduleCode.match(/^<div data-tmath="([^"]+)" data-loading="lazy" style="min-height:(\d+)px;max-width:720px"><\/div>\n<script type="module" src="([^"]+)"><\/script>$/);
  const mq = new URLSearchParams(data.replaceAll("&amp;", "&"));
  for (const [k, v] of src.searchParams) if (k !== "embed") assert.equal(mq.get(k), v, `${k} in the module's snippet`);
  assert.equal(mq.get("embed"), null);
  assert.equal(Number(minHeight), 640);
  assert.equal(script, `${env.server.base}embed.js`);
  await page.click('[data-testid="embed-module-copy"]');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), moduleCode);

  // A project view's height is measured: the snippet's equals the figure's own at 720 px.
  await page.selectOption('select[name="embed-view"]', "sweeps");
  await page.waitForFunction(() => {
    const s = document.querySelector('[data-testid="embed-snippet"]');
    return s.value.includes("view=sweeps") && s.dataset.height !== "";
  });
  const sweepsHeight = Number(await snippet.getAttribute("data-height"));
  assert.match(await snippet.inputValue(), new RegExp(`height="${sweepsHeight}"`));
  const alone = await context.newPage();
  await alone.setViewportSize({ width: 720, height: 900 });
  await alone.goto(src.href.replace("view=memory", "view=sweeps"));
  await alone.waitForSelector(".figure");
  await alone.waitForTimeout(200);
  const own = await alone.evaluate(() => Math.ceil(document.body.getBoundingClientRect().height));
  assert.equal(sweepsHeight, own, "the snippet's height is the figure's at 720 px");
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => !document.querySelector("dialog.embed-dialog").open);
  await page.screenshot({ path: path.join(ensureArtifacts(), "embed-dialog-closed.png") });
  // Closed, it follows nothing: a step does not write the hidden snippet,
  // and opening it again gives the link of the state now.
  await page.evaluate(() => {
    const s = document.querySelector('input[type="range"][data-key="params"]');
    s.value = String(Number(s.value) + 40);
    s.dispatchEvent(new Event("input", { bubbles: true }));
  });
  await page.waitForTimeout(100);
  assert.equal(await snippet.inputValue(), "", "no snippet while the dialog is closed");
  await page.click('section[data-view="memory"] [data-testid="embed-code"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="embed-snippet"]').value !== "");
  const reopened = new URL((await snippet.inputValue()).match(/src="([^"]+)"/)[1].replaceAll("&amp;", "&"));
  const params = await page.evaluate(() => new URLSearchParams(location.search).get("params"));
  assert.ok(reopened.searchParams.get("params"), `the moved parameter count in ${reopened}`);
  if (params) assert.equal(reopened.searchParams.get("params"), params, "the same state as the address bar");
  assert.deepEqual(problems, []);
  await context.close();
});

test("the reference host page's frames carry the heights the embed dialog gives", async () => {
  const html = fs.readFileSync(path.join(ROOT, "dist/figures.html"), "utf8");
  const hosted = Object.fromEntries([...html.matchAll(/view=([\w-]+)[^"]*"[^>]*height="(\d+)"/g)].map((m) => [m[1], Number(m[2])]));
  assert.deepEqual(Object.keys(hosted).sort(), [...VIEWS].sort(), "every view is on the page");
  const { page, context, problems } = await open(env.browser, `${env.server.base}?lang=ko`, { origin: env.server.origin });
  await page.click('section[data-view="memory"] [data-testid="embed-code"]');
  for (const view of VIEWS) {
    await page.selectOption('select[name="embed-view"]', view);
    await page.waitForFunction((v) => {
      const s = document.querySelector('[data-testid="embed-snippet"]');
      return s.value.includes(`view=${v}`) && s.dataset.height !== "";
    }, view);
    const h = Number(await page.getAttribute('[data-testid="embed-snippet"]', "data-height"));
    assert.equal(hosted[view], h, `figures.html: ${view} is ${hosted[view]} px, the figure ${h} px`);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

/** The reference host page, read as a reader does: scrolled a screen at a time. */
for (const width of [720, 360]) {
  test(`the reference host page at ${width} px: every frame fits its content, no inner scrollbar, no jump`, async () => {
    const context = await env.browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    const problems = [];
    page.on("pageerror", (e) => problems.push(e.message));
    await page.addInitScript(() => {
      window.reports = new Map();
      addEventListener("message", (e) => {
        if (e.data?.type !== "tmath:resize") return;
        for (const f of document.querySelectorAll("iframe")) {
          if (f.contentWindow === e.source) window.reports.set(f.src, [...(window.reports.get(f.src) ?? []), e.data.height]);
        }
      });
    });
    await page.goto(`${env.server.base}figures.html`);
    // Each frame's height when the reader first sees it, and the frames' state at every step.
    const seen = new Map();
    const total = await page.evaluate(() => document.documentElement.scrollHeight);
    for (let y = 0; y <= total; y += 400) {
      await page.evaluate((y) => scrollTo(0, y), y);
      await page.waitForTimeout(250);
      const frames = await page.$$eval("iframe", (fs) =>
        fs.map((f) => {
          const r = f.getBoundingClientRect();
          const doc = f.contentDocument;
          const body = doc?.querySelector(".figure") ? doc.body.getBoundingClientRect().height : null;
          return {
            src: f.src,
            // Read with the heights: a report that lands after this snapshot is not in it.
            reported: window.reports.has(f.src),
            visible: r.bottom > 0 && r.top < innerHeight,
            height: r.height,
            content: body,
            innerScroll: doc?.documentElement ? doc.documentElement.scrollHeight - doc.documentElement.clientHeight : 0,
            innerScrollX: doc?.documentElement ? doc.documentElement.scrollWidth - doc.documentElement.clientWidth : 0,
          };
        }),
      );
      for (const f of frames) {
        const name = new URL(f.src).searchParams.get("view");
        // A loaded frame, visible or not, is the height of its figure: at 720 px from its
        // own attribute, elsewhere after its first report.
        if (f.content !== null && (width === 720 || f.reported)) {
          assert.ok(Math.abs(f.height - Math.ceil(f.content)) <= 2, `${name}: frame ${f.height} px, figure ${f.content} px`);
          assert.ok(f.innerScroll <= 0 && f.innerScrollX <= 0, `${name}: inner scrollbar (${f.innerScroll}, ${f.innerScrollX})`);
        }
        if (f.visible && !seen.has(f.src)) seen.set(f.src, f.height);
      }
    }
    const frames = await page.$$eval("iframe", (fs) => fs.map((f) => [f.src, f.getBoundingClientRect().height]));
    assert.equal(seen.size, frames.length, "the reader saw every frame");
    for (const [src, h] of frames) {
      const name = new URL(src).searchParams.get("view");
      assert.equal(seen.get(src), h, `${name}: ${seen.get(src)} px when first seen, ${h} px now: a jump`);
      const reports = await page.evaluate((s) => window.reports.get(s), src);
      assert.ok(reports?.length >= 1, `${name} reported its height`);
      assert.ok(reports.every((r) => r === reports[0]), `${name}: the height changed after the first report: ${reports}`);
    }
    await page.evaluate(() => scrollTo(0, 0));
    await page.screenshot({ path: path.join(ensureArtifacts(), `host-page-${width}.png`) });
    assert.deepEqual(problems, []);
    await context.close();
  });
}

// Issue 27: the activations slide showed the 6PD warning of the compute
// section under its sequence-length control; at 720 px the GPU and precision
// menus cut their text ("NVIDIA A100 SXM (80 GB").
test("a figure keeps to its section's warnings, and no menu cuts its choice at 720 px", async () => {
  // s = 32768: 6PD leaves out more than 10 % (a compute warning), keyed to the sequence length.
  const q = "model=llama-2-7b&seq-len=32768&lang=en";
  const notes = async (page) => page.textContent('[data-field="seq-len"] .notes');
  const context = await env.browser.newContext({ viewport: { width: 720, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${env.server.base}?${q}`);
  await page.waitForSelector('[data-field="seq-len"]');
  assert.match(await notes(page), /6PD leaves out attention/, "the full page shows every warning");
  for (const [view, shown] of [["activations", false], ["memory", false], ["sweeps", false]]) {
    await page.goto(`${env.server.base}?embed=1&view=${view}&${q}`);
    await page.waitForSelector('[data-field="seq-len"]');
    assert.equal(/6PD/.test(await notes(page)), shown, `${view}: ${await notes(page)}`);
  }
  await page.goto(`${env.server.base}?present=1&deck=activations-7b&seq-len=32768&lang=en`);
  await page.waitForSelector('.deck [data-field="seq-len"]');
  assert.doesNotMatch(await notes(page), /6PD/, "the activations slide");
  for (const lang of ["ko", "en"]) {
    for (const view of ["memory", "model-states", "inference", "finetune"]) {
      for (const extra of ["", "&gpu=mi300x", "&gpu=rtx-4090", "&precision=mixed", "&finetune=lora"]) {
        await page.goto(`${env.server.base}?embed=1&view=${view}&lang=${lang}${extra}`);
        await page.waitForSelector(".figure-controls select");
        const cut = await page.$$eval(".figure-controls select", (sels) =>
          sels
            .filter((s) => {
              const c = document.createElement("canvas").getContext("2d");
              const st = getComputedStyle(s);
              c.font = `${st.fontSize} ${st.fontFamily}`;
              const text = s.options[s.selectedIndex].text;
              // The box less its padding, border and the arrow (about 20 px).
              const room = s.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight) - 20;
              return c.measureText(text).width > room;
            })
            .map((s) => s.options[s.selectedIndex].text),
        );
        assert.deepEqual(cut, [], `${view}${extra} (${lang}) at 720 px`);
      }
    }
  }
  await context.close();
});

// Issue 41: "D/P = 112000 without a separator": a ratio reads grouped, in the headline and on the chart.
test("the Chinchilla figure groups a large D/P and opens its ƒ over itself, in both languages", async () => {
  for (const lang of ["ko", "en"]) {
    const context = await env.browser.newContext({ viewport: { width: 390, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${env.server.base}?embed=1&view=chinchilla&lang=${lang}&params=1e6&tokens=112e9`);
    await page.waitForSelector('[data-testid="chinchilla-chart"] text');
    const said = await page.textContent('[data-testid="tokens-per-param"]');
    assert.match(said, /112,000/, `${lang}: ${said}`);
    const chart = await page.$$eval('[data-testid="chinchilla-chart"] text', (t) => t.map((e) => e.textContent).join(" | "));
    assert.match(chart, /D\/P\u00a0=\u00a0112,000/, `${lang}: ${chart}`);
    // An opened ƒ lays its explanation over the figure: the figure keeps the height its snippet gives.
    const height = () => page.evaluate(() => document.body.getBoundingClientRect().height);
    const before = await height();
    await page.click("details.explain > summary");
    await page.waitForSelector("details.explain[open] .explain-body");
    assert.equal(await height(), before, `${lang}: the open ƒ grew the figure`);
    await context.close();
  }
});

// Issue 37: the article's 1.2 × weights with a quantized file's format: its bytes per parameter
// are its tensors' average, so the headline's "=" holds (Llama 2 7B in GGUF Q4_K_M: 0.606 B/param).
test("the inference figure's equation holds for a quantized format", async () => {
  const context = await env.browser.newContext({ viewport: { width: 720, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${env.server.base}?embed=1&view=inference&lang=en&model=llama-2-7b&inference-dtype=q4_k_m`);
  await page.waitForSelector('[data-testid="inference-total"]');
  const line = await page.textContent('[data-testid="inference-total"]');
  assert.match(line, /1\.2\s×\s0\.606\sB\/param\s×\s6\.74B\s=\s4\.90\sGB/, line);
  const bytes = Number(await page.getAttribute('[data-testid="inference-total"]', "data-bytes"));
  assert.equal(Math.round(bytes / 1.2), 4_080_263_168, "1.2 × the file's tensors");
  await context.close();
});
