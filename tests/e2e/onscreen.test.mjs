// Work only for what is on screen (issue 17): while a slider moves, a view off
// screen keeps its numbers; it catches up when input pauses, and a view that a
// scroll brings into view shows the current numbers in its first painted frame.
import { test } from "node:test";
import assert from "node:assert/strict";
import { startBrowser, open } from "./harness.mjs";

const env = startBrowser();

/** In the page: one slider step on P, then the numbers a frame later. */
function stepAndRead() {
  return new Promise((resolve) => {
    const slider = document.querySelector('input[type="range"][data-key="params"]');
    slider.value = String(Number(slider.value) + 7);
    slider.dispatchEvent(new Event("input", { bubbles: true }));
    requestAnimationFrame(() =>
      resolve({
        summary: document.querySelector('[data-testid="summary"]').textContent,
        flops: document.querySelector('[data-testid="flops"] dd').textContent,
      }),
    );
  });
}

for (const [name, viewport] of [["a phone (390 × 844)", { width: 390, height: 844 }], ["the desktop (1360 × 800)", { width: 1360, height: 800 }]]) {
  test(`on ${name}, a view off screen waits for the pause, and a scroll shows it current in its first frame`, async () => {
    const { page, context, problems } = await open(env.browser, `${env.server.base}?lang=en`, { origin: env.server.origin, viewport, hasTouch: viewport.width < 500 });
    await page.waitForSelector('[data-testid="flops"]');
    await page.waitForTimeout(300);
    // The compute view is below the fold at both sizes.
    const below = await page.$eval('section[data-view="compute"]', (el) => el.getBoundingClientRect().top > 1.5 * innerHeight);
    assert.ok(below, "the compute view starts off screen");
    const before = await page.$eval('[data-testid="flops"] dd', (el) => el.textContent);
    const step = await page.evaluate(stepAndRead);
    assert.ok(!step.summary.includes(before), `the summary line follows the step at once: ${step.summary}`);
    assert.equal(step.flops, before, "the compute view off screen has not recomputed");
    // Once input pauses, it catches up.
    await page.waitForFunction(() => document.querySelector('[data-testid="summary"]').textContent.includes(document.querySelector('[data-testid="flops"] dd').textContent), null, { timeout: 2000 });
    // A step, and at once a scroll to the view: its first painted frame shows the step.
    const seen = await page.evaluate(
      () =>
        new Promise((resolve) => {
          const slider = document.querySelector('input[type="range"][data-key="params"]');
          slider.value = String(Number(slider.value) + 7);
          slider.dispatchEvent(new Event("input", { bubbles: true }));
          document.querySelector('section[data-view="compute"]').scrollIntoView();
          // Animation frame callbacks run after the frame's scroll events and before its paint.
          requestAnimationFrame(() =>
            resolve({
              summary: document.querySelector('[data-testid="summary"]').textContent,
              flops: document.querySelector('[data-testid="flops"] dd').textContent,
            }),
          );
        }),
    );
    assert.ok(seen.summary.includes(seen.flops), `first frame after the scroll: ${seen.flops} in "${seen.summary}"`);
    // On screen now (once the IntersectionObserver has said so), it follows every step.
    await page.waitForSelector('section[data-view="compute"][data-live="true"]');
    const live = await page.evaluate(stepAndRead);
    assert.ok(live.summary.includes(live.flops), `on screen: ${live.flops} in "${live.summary}"`);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test("on a phone, controls off screen wait for the pause too, and a scroll shows them current", async () => {
  const viewport = { width: 390, height: 844 };
  const { page, context, problems } = await open(env.browser, `${env.server.base}?lang=en`, { origin: env.server.origin, viewport, hasTouch: true });
  await page.waitForSelector('[data-testid="flops"]');
  await page.waitForTimeout(300);
  // P alone derives the shape (the nearest published one): the layers control follows P.
  const layers = () => document.querySelector('input[name="layers"]').value;
  const before = await page.evaluate(layers);
  const off = await page.$eval('input[name="layers"]', (el) => el.closest("fieldset").getBoundingClientRect().top > 1.5 * innerHeight);
  assert.ok(off, "the shape's controls start off screen");
  const seen = await page.evaluate(
    (layersSrc) =>
      new Promise((resolve) => {
        const read = new Function(`return (${layersSrc})()`);
        const slider = document.querySelector('input[type="range"][data-key="params"]');
        slider.value = String(Number(slider.min) + 0.9 * (Number(slider.max) - Number(slider.min)));
        slider.dispatchEvent(new Event("input", { bubbles: true }));
        const during = read();
        document.querySelector('input[name="layers"]').closest("fieldset").scrollIntoView();
        requestAnimationFrame(() => resolve({ during, after: read() }));
      }),
    layers.toString(),
  );
  assert.equal(seen.during, before, "off screen, the control has not followed the step");
  assert.notEqual(seen.after, before, `first frame after the scroll shows the derived shape: ${seen.after}`);
  assert.deepEqual(problems, []);
  await context.close();
});

test("a view that comes on screen without a scroll (the layout above it shrinks) catches up when the observer says so", async () => {
  const { page, context, problems } = await open(env.browser, `${env.server.base}?lang=en`, { origin: env.server.origin, viewport: { width: 1360, height: 800 } });
  await page.waitForSelector('[data-testid="flops"]');
  await page.waitForTimeout(300);
  const seen = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const section = document.querySelector('section[data-view="compute"]');
        const read = () => ({
          summary: document.querySelector('[data-testid="summary"]').textContent,
          flops: document.querySelector('[data-testid="flops"] dd').textContent,
        });
        // When the observer marks the view live, read it in the next frame.
        new MutationObserver(() => {
          if (section.dataset.live === "true") requestAnimationFrame(() => resolve({ ...read(), at: performance.now() - t0 }));
        }).observe(section, { attributes: true, attributeFilter: ["data-live"] });
        const slider = document.querySelector('input[type="range"][data-key="params"]');
        slider.value = String(Number(slider.value) + 7);
        slider.dispatchEvent(new Event("input", { bubbles: true }));
        const t0 = performance.now();
        // No scroll: everything above the compute view goes, and it lands in the viewport.
        for (const el of document.querySelectorAll('section[data-view]')) {
          if (el.dataset.view === "compute") break;
          el.style.display = "none";
        }
      }),
  );
  // Before the pause (120 ms) the view has caught up, from the root's numbers.
  assert.ok(seen.at < 120, `live after ${seen.at} ms`);
  assert.ok(seen.summary.includes(seen.flops), `${seen.flops} in "${seen.summary}"`);
  assert.deepEqual(problems, []);
  await context.close();
});
