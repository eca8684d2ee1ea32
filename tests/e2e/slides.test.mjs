// Slides (`present=1`) for the lecture hall: one view per slide on a
// 1280×720 or 1920×1080 projector, the chart most of the slide, no text under
// 18 px, at most four controls, no site chrome; ← → and PageUp/PageDown walk
// the deck without reloading, the address follows, Esc leaves.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { startBrowser, open, ensureArtifacts, waitForQuery } from "./harness.mjs";

const env = startBrowser();

/** What a projector shows of the slide on `page`. */
async function slideMetrics(page) {
  return page.evaluate(() => {
    const W = innerWidth;
    const H = innerHeight;
    const visible = (e) => e.checkVisibility() && e.getBoundingClientRect().width > 0;
    const small = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!n.textContent.trim() || !el || !visible(el) || el.closest(".sr-only, option")) continue;
      const size = parseFloat(getComputedStyle(el).fontSize);
      if (size < 18) small.push(`${n.textContent.trim().slice(0, 30)} (${size}px)`);
    }
    const charts = [...document.querySelectorAll(".deck canvas")].filter(visible).map((c) => {
      const r = c.getBoundingClientRect();
      return r.width * r.height;
    });
    return {
      title: document.querySelector('[data-testid="slide-title"]').textContent,
      counter: document.querySelector('[data-testid="slide-counter"]').textContent,
      chartShare: Math.max(0, ...charts) / (W * H),
      small,
      controls: document.querySelectorAll(".slide-controls .field").length,
      chrome: !!document.querySelector("header.top, .summary, .teaching, footer:not(.slide-foot)"),
      overflow: [document.documentElement.scrollWidth - W, document.documentElement.scrollHeight - H],
      total: document.querySelector('[data-testid="per-gpu-total"]')?.dataset.bytes ?? null,
    };
  });
}

function checkSlide(m, what) {
  assert.ok(m.chartShare >= 0.4, `${what}: the chart fills ${(100 * m.chartShare).toFixed(1)} % of the slide`);
  assert.deepEqual(m.small, [], `${what}: text under 18 px`);
  assert.ok(m.controls <= 4, `${what}: ${m.controls} controls`);
  assert.equal(m.chrome, false, `${what}: site chrome`);
  assert.ok(m.overflow[0] <= 0 && m.overflow[1] <= 0, `${what}: overflows the screen by ${m.overflow}`);
}

for (const [width, height] of [
  [1280, 720],
  [1920, 1080],
]) {
  test(`the default deck at ${width}×${height}: seven slides, walked in the page; the address follows`, async () => {
    const { page, context, problems } = await open(env.browser, `${env.server.base}?present=1&lang=ko`, {
      origin: env.server.origin,
      viewport: { width, height },
      ready: ".deck",
    });
    // A reload would lose this.
    await page.evaluate(() => (window.sameDocument = true));
    const seen = [];
    for (let i = 1; i <= 7; i++) {
      await page.waitForFunction((i) => document.querySelector('[data-testid="slide-counter"]').textContent === `${i} / 7`, i);
      const q = await waitForQuery(page, (q) => (q.get("slide") ?? "1") === String(i) && q.get("present") === "1");
      await page.waitForTimeout(150);
      const m = await slideMetrics(page);
      checkSlide(m, `slide ${i} (${m.title})`);
      seen.push({ url: page.url(), title: m.title, total: m.total, q: q.toString() });
      if (width === 1280) await page.screenshot({ path: path.join(ensureArtifacts(), `slide-${i}.png`) });
      // Clickers send PageDown; keyboards, the arrow.
      await page.keyboard.press(i % 2 ? "ArrowRight" : "PageDown");
    }
    await page.waitForFunction(() => document.querySelector('[data-testid="slide-counter"]').textContent === "1 / 7");
    await page.keyboard.press("PageUp");
    await page.waitForFunction(() => document.querySelector('[data-testid="slide-counter"]').textContent === "7 / 7");
    await page.keyboard.press("ArrowLeft");
    await page.waitForFunction(() => document.querySelector('[data-testid="slide-counter"]').textContent === "6 / 7");
    assert.equal(await page.evaluate(() => window.sameDocument), true, "no reload");
    assert.equal(new Set(seen.map((s) => s.title)).size >= 6, true, `slides say what they show: ${seen.map((s) => s.title)}`);

    // Any slide's link opens on that slide, with the same numbers.
    if (width === 1280) {
      for (const [i, s] of seen.entries()) {
        await page.goto(s.url);
        await page.waitForSelector(".deck");
        const m = await slideMetrics(page);
        assert.equal(m.counter, `${i + 1} / 7`, s.url);
        assert.equal(m.title, s.title, s.url);
        assert.equal(m.total, s.total, `${s.url}: the same result`);
      }
      // A link to a slide without its state opens on that slide's own state.
      await page.goto(`${env.server.base}?present=1&slide=3&lang=ko`);
      await page.waitForSelector(".deck");
      assert.equal((await slideMetrics(page)).total, seen[2].total, "slide 3 without its state");
    }
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test("Esc leaves the slides for the full page on the same state; a deck can list views", async () => {
  const q = "present=1&deck=zero,memory,compute&model=llama-2-13b&gpus=8&lang=en";
  const { page, context, problems } = await open(env.browser, `${env.server.base}?${q}`, {
    origin: env.server.origin,
    viewport: { width: 1280, height: 720 },
    ready: ".deck",
  });
  let m = await slideMetrics(page);
  assert.equal(m.counter, "1 / 3");
  assert.match(m.title, /ZeRO/);
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(() => document.querySelector('[data-testid="slide-counter"]').textContent === "2 / 3");
  m = await slideMetrics(page);
  checkSlide(m, "memory view in a custom deck");
  // A control on a slide moves its chart.
  await page.selectOption('.slide-controls select[name="zero"]', "3");
  await page.waitForFunction((t) => document.querySelector('[data-testid="per-gpu-total"]').dataset.bytes !== t, m.total);
  await page.keyboard.press("Escape");
  await page.waitForSelector("header.top");
  await page.waitForSelector('[data-testid="per-gpu-total"]', { state: "attached" });
  const q2 = await waitForQuery(page, (q) => !q.has("present"));
  assert.equal(q2.get("model"), "llama-2-13b");
  assert.equal(q2.get("zero"), "3");
  // The full page's button starts the default deck.
  await page.click('[data-testid="present"]');
  await page.waitForSelector(".deck");
  assert.deepEqual(problems, []);
  await context.close();
});
