// Teaching: a view opened by its link, presets with their published numbers,
// the floating-point explorer, exports.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { startBrowser, open, tmathJson, domBytes, chartBars } from "./harness.mjs";

const env = startBrowser();

test("?view= on the full page opens it at that panel", async () => {
  const { page, context, problems } = await open(env.browser, `${env.server.base}?view=zero&lang=en`, { origin: env.server.origin });
  await page.waitForFunction(() => {
    const r = document.querySelector('section[data-view="zero"]').getBoundingClientRect();
    return r.top >= -1 && r.top < innerHeight / 2;
  });
  assert.deepEqual(problems, []);
  await context.close();
});

test("each lecture preset reproduces its published numbers", async () => {
  const { page, context, problems } = await open(env.browser, `${env.server.base}?lang=en`, { origin: env.server.origin });
  // The canned deck is among the presets (issue 41); its slides are held in slides.test.mjs.
  const links = (await page.$$eval("a[data-preset]", (as) => as.map((a) => [a.dataset.preset, a.getAttribute("href")]))).filter(([k]) => k !== "deck");
  // Transformer Math 101, the ZeRO paper, Brown et al. 2020, Dubey et al. 2024, Hoffmann et al. 2022, Korthikanti et al. 2022.
  const checks = {
    "7b": (d) => assert.equal(d.model + d.gradients + d.optimizer, 112e9),
    // s·b·h·L·(10 + 24 + 5as/h) at s = 4096: the article's activation terms.
    "activations-7b": (d) => assert.equal(d.activations, 4096 * 4096 * 32 * (34 + (5 * 32 * 4096) / 4096)),
    "zero-paper": (d) => assert.equal(d.model + d.gradients + d.optimizer, 31.40625e9),
    // Brown et al.'s 3.14e23 is 6PD; the preset's megatron convention adds PaLM's
    // attention term 12·L·h·s per token, 2.8 % at s = 2048.
    "gpt-3": (d) => {
      const attention = (12 * 96 * 12288 * 2048) / (6 * 175e9);
      assert.ok(Math.abs(d.flops - 3.15e23 * (1 + attention)) / 3.15e23 < 0.01, `${d.flops}`);
    },
    "70b-fsdp": (d) => assert.equal(d.fits, true),
    "70b-8": (d) => {
      assert.equal(d.fits, false);
      assert.ok(d.model + d.gradients + d.optimizer > 137e9, "≈ 140 GB of model states");
    },
    "70b-16": (d) => assert.equal(d.fits, true),
    "405b": (d) => assert.equal(d.fits, true),
    "chinchilla-70b": (d) => assert.equal(d.chinchilla, 1.4e12),
    // The article's inference: 7B in fp16, 14 GB × 1.2 = 16.8 GB.
    // Kipply's arithmetic live: the serving figure's time per output token, as the core gives it.
    "serving-70b": (d, page) => page.textContent('[data-testid="serving-tpot"]').then((t) => assert.ok(/^\d[\d.,]*\sms$/.test(t), t)),
    // Fine-tuning on one RTX 4090: QLoRA fits, full fine-tuning does not; the bars are the core's.
    "finetune-8b-4090": async (d, page) => {
      assert.equal(d.fits, true);
      const full = Number(await page.getAttribute('[data-testid="finetune-full"]', "data-bytes"));
      const qlora = Number(await page.getAttribute('[data-testid="finetune-qlora"]', "data-bytes"));
      assert.ok(full > 24 * 2 ** 30 && qlora < 24 * 2 ** 30, `${full} ${qlora}`);
    },
    // GRPO's phases side by side: the colocated engine's share in generation, none in training.
    "grpo-7b": async (d, page) => {
      assert.equal(d.fits, true);
      const bars = await chartBars(page, "finetune-phases-chart");
      assert.equal(bars.length, 2);
      assert.ok(bars[0]["8"] > 25e9 && !bars[1]["8"], JSON.stringify(bars));
    },
    "inference-7b": (d, page) => page.getAttribute('[data-testid="inference"]', "data-bytes").then((b) => assert.equal(Number(b), 16.8e9)),
    // 5.88e23 FLOPs at 150 TFLOP/s × $2 and at 400 TFLOP/s × $3.50 per GPU-hour.
    "lesson-a100": (d) => assert.ok(Math.abs(d.cost - (5.88e23 / 150e12 / 3600) * 2) < 1, `${d.cost}`),
    "lesson-h100": (d) => assert.ok(Math.abs(d.cost - (5.88e23 / 400e12 / 3600) * 3.5) < 1, `${d.cost}`),
    "megatron-22b": (d) => assert.equal(d.fits, true),
    "megatron-175b": (d) => assert.equal(d.fits, true),
    "megatron-530b": (d) => assert.equal(d.fits, true),
    "megatron-1t": (d) => assert.equal(d.fits, true),
  };
  assert.deepEqual(links.map(([k]) => k).sort(), Object.keys(checks).sort());
  for (const [key, href] of links) {
    await page.goto(new URL(href, env.server.base).href);
    await page.waitForSelector('[data-testid="per-gpu-total"]');
    const dom = await domBytes(page);
    await checks[key](dom, page);
    const pairs = [...new URL(href, env.server.base).searchParams.entries()].filter(([k]) => k !== "lang");
    assert.equal(dom.total, tmathJson(pairs).per_gpu_bytes.total, key);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test("the floating-point explorer: fp16 max 65504; 1e-8 underflows in fp16, not in bf16", async () => {
  const { page, context, problems } = await open(env.browser, `${env.server.base}?view=fp`, { origin: env.server.origin });
  assert.equal(await page.getAttribute('[data-testid="fp-max-fp16"]', "data-value"), "65504");
  assert.equal(await page.getAttribute('[data-testid="fp-max-fp8-e4m3"]', "data-value"), "448");
  assert.equal(await page.getAttribute('[data-testid="underflow-fp16"]', "data-class"), "underflow");
  assert.equal(await page.getAttribute('[data-testid="underflow-bf16"]', "data-class"), "normal");
  await page.fill("#f-fp", "70000");
  assert.equal(await page.getAttribute('[data-testid="fp-fp16"]', "data-value"), "inf"); // Rust prints ∞ as inf
  await page.fill("#f-fp", "1e-8");
  assert.equal(await page.getAttribute('[data-testid="fp-fp16"]', "data-value"), "0");
  assert.notEqual(await page.getAttribute('[data-testid="fp-bf16"]', "data-value"), "0");
  // The explorer's value is in the link.
  const q = await (async () => {
    for (let i = 0; i < 60; i++) {
      const v = new URL(page.url()).searchParams.get("fp");
      if (v === "1e-8") return v;
      await page.waitForTimeout(50);
    }
    return null;
  })();
  assert.equal(q, "1e-8");
  await page.fill("#f-fp", "banana");
  assert.ok(await page.isVisible("text=/not a number|숫자가 아닙니다/i"));
  assert.deepEqual(problems, []);
  await context.close();
});

test("exports download files whose contents match the screen", async () => {
  const q = "model=llama-2-70b&seq-len=4096&dp=16&zero=3&recompute=full";
  const { page, context, problems } = await open(env.browser, `${env.server.base}?${q}`, { origin: env.server.origin });
  const dom = await domBytes(page);
  const grab = async (kind) => {
    const [download] = await Promise.all([page.waitForEvent("download"), page.click(`button[data-export="${kind}"]`)]);
    return fs.readFileSync(await download.path());
  };
  const json = JSON.parse(await grab("json"));
  assert.equal(json.result.per_gpu_bytes.total, dom.total);
  assert.deepEqual(json.result, tmathJson([...new URLSearchParams(q).entries()]));
  assert.deepEqual(Object.keys(json).sort(), ["query", "result", "state"]);
  const csv = (await grab("csv")).toString();
  assert.ok(csv.startsWith("key,value\n"));
  assert.ok(csv.includes(`per_gpu_bytes.total,${dom.total}`), csv.slice(0, 400));
  const png = await grab("png");
  assert.deepEqual([...png.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  assert.deepEqual(problems, []);
  await context.close();
});
