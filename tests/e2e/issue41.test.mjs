// Issue 41: what an engineer and a lecturer ran into, held in a real browser in
// both languages. The engineer: a Megatron-LM launch script's cluster, global
// batch, recomputation and tokens; one default global batch for the calculator
// and the planner; a nested config.json. The lecturer: slide 5 and the titles
// after a live change, presenting the state on the screen, the deck's ends (in
// slides.test.mjs), and the exported PNG's legend.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startBrowser, open, ensureArtifacts, waitForQuery, tmathJson } from "./harness.mjs";

const env = startBrowser();

const LAUNCH = `GPUS_PER_NODE=8
NNODES=8
torchrun --nproc_per_node $GPUS_PER_NODE --nnodes $NNODES pretrain_gpt.py \\
  --num-layers 80 --hidden-size 8192 --num-attention-heads 64 \\
  --group-query-attention --num-query-groups 8 --ffn-hidden-size 28672 --swiglu \\
  --seq-length 8192 --max-position-embeddings 8192 \\
  --tensor-model-parallel-size 4 --pipeline-model-parallel-size 4 \\
  --micro-batch-size 1 --global-batch-size 512 --train-iters 1000 \\
  --recompute-activations --lr 1.5e-4 --bf16 --use-distributed-optimizer`;

/** Pastes `text` into a reader's textarea (`testid`: hf-config or megatron-args) and returns what it said. */
async function paste(page, testid, text) {
  await page.click(`[data-testid="${testid}"] summary`);
  await page.fill(`[data-testid="${testid}"] textarea`, text);
  const result = testid === "hf-config" ? "hf-result" : "megatron-result";
  await page.waitForFunction((id) => document.querySelector(`[data-testid="${id}"]`).textContent.length > 0, result);
  return page.textContent(`[data-testid="${result}"]`);
}

for (const lang of ["en", "ko"]) {
  test(`a launch script's cluster, global batch, recomputation and tokens (${lang})`, async () => {
    const { page, context, problems } = await open(env.browser, `${env.server.base}?lang=${lang}`, { origin: env.server.origin });
    const said = await paste(page, "megatron-args", LAUNCH);
    const q = await waitForQuery(page, (q) => q.get("gpus") === "64");
    assert.equal(q.get("global-batch"), "512");
    assert.equal(q.get("recompute"), "selective");
    assert.equal(Number(q.get("tokens")), 1000 * 512 * 8192);
    // What it did not use is named for what it is: the learning rate has no effect; nothing with one is "not used".
    assert.match(said, lang === "en" ? /No effect on memory, compute or time: ‑‑lr/ : /메모리·연산량·시간에 영향 없음: ‑‑lr/);
    for (const flag of ["global‑batch‑size", "recompute‑activations", "train‑iters", "nproc_per_node"]) {
      const unread = said.split(lang === "en" ? "Not read" : "읽지 않은 항목")[1].split(lang === "en" ? "No effect" : "메모리·연산량")[0];
      assert.ok(!unread.includes(flag), `${flag} is not called unread: ${unread}`);
    }
    // The page says which m its verdict assumed, and the numbers are the core's.
    const assumed = await page.textContent('[data-testid="batch-assumed"]');
    assert.match(assumed, lang === "en" ? /G\u00a0=\u00a0512 sequences per step, so m\u00a0=\u00a0128/ : /G\u00a0=\u00a0512개 시퀀스, 따라서 .*m\u00a0=\u00a0128개/);
    const core = tmathJson([...q.entries()].filter(([k]) => k !== "lang"));
    assert.equal(Number(await page.getAttribute('[data-testid="per-gpu-total"]', "data-bytes")), core.per_gpu_bytes.total);
    assert.equal(core.grad_accum, 128);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test("one default global batch: the calculator's m and the planner's layouts keep G = 2,048", async () => {
  const q = "model=llama-3-70b&gpus=64&tp=4&pp=4&seq-len=8192&convention=megatron&gpu=h100-80gb&lang=en";
  const { page, context, problems } = await open(env.browser, `${env.server.base}?${q}`, { origin: env.server.origin });
  // m = 2048/(1·4) = 512: four micro-batches in flight on the first stage, not one.
  const assumed = await page.textContent('[data-testid="batch-assumed"]');
  assert.match(assumed, /Assumed: a global batch of G\u00a0=\u00a02,048 sequences per step, so m\u00a0=\u00a0512 micro-batches of b\u00a0=\u00a01 on d\u00a0=\u00a04/);
  const mShown = await page.inputValue('input[name="grad-accum"]');
  assert.equal(mShown, "512");
  const one = tmathJson([["model", "llama-3-70b"], ["gpus", "64"], ["tp", "4"], ["pp", "4"], ["seq-len", "8192"], ["convention", "megatron"], ["gpu", "h100-80gb"], ["grad-accum", "1"]]);
  const total = Number(await page.getAttribute('[data-testid="per-gpu-total"]', "data-bytes"));
  assert.ok(total > one.per_gpu_bytes.total + 20e9, `m from G holds more than m = 1: ${total} vs ${one.per_gpu_bytes.total}`);
  // A global batch typed on the page moves m.
  await page.fill('input[name="global-batch"]', "256");
  await page.press('input[name="global-batch"]', "Enter");
  await page.waitForFunction(() => document.querySelector('input[name="grad-accum"]').value === "64");
  assert.deepEqual(problems, []);
  await context.close();
});

test("a nested config.json (Gemma 3's text_config) fills the shape", async () => {
  const gemma3 = JSON.stringify({
    architectures: ["Gemma3ForConditionalGeneration"],
    model_type: "gemma3",
    text_config: { head_dim: 128, hidden_size: 5376, intermediate_size: 21504, model_type: "gemma3_text", num_attention_heads: 32, num_hidden_layers: 62, num_key_value_heads: 16, sliding_window: 1024 },
    torch_dtype: "bfloat16",
    vision_config: { hidden_size: 1152, num_hidden_layers: 27, model_type: "siglip_vision_model" },
  });
  for (const lang of ["en", "ko"]) {
    const { page, context, problems } = await open(env.browser, `${env.server.base}?lang=${lang}`, { origin: env.server.origin });
    const said = await paste(page, "hf-config", gemma3);
    assert.doesNotMatch(said, /no field of a model's shape|구조/, said);
    const q = await waitForQuery(page, (q) => q.get("layers") === "62");
    assert.equal(q.get("hidden"), "5376");
    assert.equal(q.get("vocab"), "262208");
    assert.ok(Math.abs(Number(q.get("params")) / 27.016e9 - 1) < 0.01, q.get("params"));
    assert.match(said, /text_config\.hidden_size/);
    assert.match(said, /vision_config/);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

/** The memory chart's text alternative (every bar's label and total). */
const chartLabel = (page) => page.getAttribute('[data-testid="memory-chart"]', "aria-label");

test("slide 5 after a live change: every bar's label says what the bar is, and the title says the setup changed", async () => {
  for (const lang of ["en", "ko"]) {
    const { page, context, problems } = await open(env.browser, `${env.server.base}?present=1&slide=5&lang=${lang}`, {
      origin: env.server.origin,
      viewport: { width: 1280, height: 720 },
      ready: '[data-testid="memory-chart"]',
    });
    const title0 = await page.textContent('[data-testid="slide-title"]');
    const gpus = lang === "en" ? (n) => `${n} GPUs` : (n) => `GPU ${n}장`;
    let label = await chartLabel(page);
    for (const n of [8, 16, 16]) assert.ok(label.includes(gpus(n)), `${label}`);
    for (const n of [32, 8]) {
      await page.fill('.slide-controls input[name="gpus"]', String(n));
      await page.press('.slide-controls input[name="gpus"]', "Enter");
      await page.waitForFunction((t) => document.querySelector('[data-testid="slide-title"]').textContent !== t, title0);
      await page.waitForTimeout(300);
      label = await chartLabel(page);
      // Three bars: the 8-GPU one, and the current N's two; none empty, none under another count's label.
      const bars = label.split(" · ")[1].split("; ");
      assert.equal(bars.length, 3, label);
      assert.ok(bars[0].startsWith(gpus(8)), `${bars[0]}`);
      assert.ok(bars[1].startsWith(gpus(n)) && bars[2].startsWith(gpus(n)), `${bars}`);
      for (const b of bars) assert.doesNotMatch(b, /: 0(\.0)?\u00a0GB/, b);
      const sub = await page.textContent('[data-testid="slide-sub"]');
      assert.match(sub, lang === "en" ? /Changed live from “70B with FSDP \(ZeRO-3\): 8 vs 16 GPUs”: / : /“FSDP\(ZeRO-3\)로 700억 모델: GPU 8장과 16장”에서 바꾼 설정: /);
      assert.notEqual(await page.textContent('[data-testid="slide-title"]'), title0);
      if (n === 32) await page.screenshot({ path: path.join(ensureArtifacts(), `slide-5-live-${lang}.png`) });
    }
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test("a title that names numbers never stays over other numbers (slides 3 and 6)", async () => {
  for (const lang of ["en", "ko"]) {
    const { page, context, problems } = await open(env.browser, `${env.server.base}?present=1&slide=3&lang=${lang}`, {
      origin: env.server.origin,
      viewport: { width: 1280, height: 720 },
      ready: ".deck",
    });
    assert.match(await page.textContent('[data-testid="slide-title"]'), lang === "en" ? /7\.5B on 64 GPUs/ : /75억/);
    await page.fill('.slide-controls input[name="dp"]', "32");
    await page.press('.slide-controls input[name="dp"]', "Enter");
    await page.waitForFunction(() => !/64/.test(document.querySelector('[data-testid="slide-title"]').textContent));
    assert.match(await page.textContent('[data-testid="slide-sub"]'), lang === "en" ? /Changed live from .*: GPUs N/ : /바꾼 설정: /);
    await page.screenshot({ path: path.join(ensureArtifacts(), `slide-3-live-${lang}.png`) });
    // Slide 6's 16,384 H100s, at N = 8,192.
    await page.keyboard.press("End");
    await page.goto(`${env.server.base}?present=1&slide=6&lang=${lang}`);
    await page.waitForSelector(".deck");
    assert.match(await page.textContent('[data-testid="slide-title"]'), /16,384/);
    await page.fill('.slide-controls input[name="gpus"]', "8192");
    await page.press('.slide-controls input[name="gpus"]', "Enter");
    await page.waitForFunction(() => !/16,384/.test(document.querySelector('[data-testid="slide-title"]').textContent));
    // Back to the preset's own state, the preset's title returns.
    await page.fill('.slide-controls input[name="gpus"]', "16384");
    await page.press('.slide-controls input[name="gpus"]', "Enter");
    await page.waitForFunction(() => /16,384/.test(document.querySelector('[data-testid="slide-title"]').textContent));
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test("present mode shows the lecturer's state, and Esc returns to it", async () => {
  const q = "model=llama-3-70b&gpus=64&tp=8&zero=1&lang=en";
  const { page, context, problems } = await open(env.browser, `${env.server.base}?${q}`, { origin: env.server.origin });
  const total = await page.getAttribute('[data-testid="per-gpu-total"]', "data-bytes");
  await page.click('[data-testid="present"]');
  await page.waitForSelector(".deck");
  // Walk to the memory slide: the same bytes as the page, under a view's title, not a preset's.
  for (let i = 0; i < 8; i++) {
    if (await page.$('.deck [data-testid="per-gpu-total"]')) break;
    await page.keyboard.press("ArrowRight");
    await page.waitForTimeout(150);
  }
  assert.equal(await page.getAttribute('[data-testid="per-gpu-total"]', "data-bytes"), total);
  assert.doesNotMatch(await page.textContent('[data-testid="slide-title"]'), /7B on one A100/);
  await page.keyboard.press("Escape");
  await page.waitForSelector("header.top");
  const back = await waitForQuery(page, (q) => !q.has("present"));
  assert.equal(back.get("model"), "llama-3-70b");
  assert.equal(back.get("gpus"), "64");
  // A link that names a state and present=1 presents that state too.
  await page.goto(`${env.server.base}?present=1&${q}`);
  await page.waitForSelector(".deck");
  assert.doesNotMatch(await page.textContent('[data-testid="slide-title"]'), /7B on one A100/);
  assert.match(await page.textContent(".slide-sub"), /Llama 3 70B/);
  // The canned deck stays a preset: its own link.
  await page.goto(`${env.server.base}?${q}`);
  await page.click("details.presets summary");
  assert.equal(await page.getAttribute('a[data-preset="deck"]', "href"), "?present=1&lang=en");
  assert.deepEqual(problems, []);
  await context.close();
});

/** Whether a decoded PNG has any ink in its right margin (the last `cols` columns). */
async function rightMarginInk(page, file, cols) {
  const data = fs.readFileSync(file).toString("base64");
  return page.evaluate(
    async ([data, cols]) => {
      const img = new Image();
      img.src = `data:image/png;base64,${data}`;
      await img.decode();
      const c = document.createElement("canvas");
      c.width = img.width;
      c.height = img.height;
      const g = c.getContext("2d");
      g.drawImage(img, 0, 0);
      const [r0, g0, b0] = g.getImageData(0, 0, 1, 1).data;
      const inked = (x, y, w, h) => {
        const px = g.getImageData(x, y, w, h).data;
        let n = 0;
        for (let i = 0; i < px.length; i += 4) {
          if (Math.abs(px[i] - r0) + Math.abs(px[i + 1] - g0) + Math.abs(px[i + 2] - b0) > 60) n++;
        }
        return n / (w * h);
      };
      // The right margin, and the chart's band (the middle third of the image).
      const ink = Math.round(inked(img.width - cols, 0, cols, img.height) * cols * img.height);
      const chart = inked(0, Math.round(img.height / 3), img.width, Math.round(img.height / 3));
      return { ink, chart, width: img.width, height: img.height };
    },
    [data, cols],
  );
}

test("the exported PNG keeps its legend and its lines inside the image, in both languages", async () => {
  for (const lang of ["en", "ko"]) {
    for (const width of [390, 1360]) {
      const q = `model=llama-3-70b&gpus=16&zero=3&recompute=selective&convention=megatron&lang=${lang}`;
      const { page, context, problems } = await open(env.browser, `${env.server.base}?${q}`, {
        origin: env.server.origin,
        viewport: { width, height: 900 },
        acceptDownloads: true,
      });
      await page.waitForTimeout(300);
      const [download] = await Promise.all([page.waitForEvent("download"), page.click('[data-export="png"]')]);
      const file = path.join(ensureArtifacts(), `export-${lang}-${width}.png`);
      await download.saveAs(file);
      // The margin is the chart's em (its width/60, at least 12 px): half of it must stay blank.
      const { ink, chart, width: w } = await rightMarginInk(page, file, 6);
      assert.equal(ink, 0, `${lang} at ${width} px: ${ink} pixels drawn in the right margin of a ${w} px image`);
      // The chart is drawn, also where its panel was below the screen (a phone's).
      assert.ok(chart > 0.05, `${lang} at ${width} px: the chart's band is ${(100 * chart).toFixed(1)} % inked`);
      assert.deepEqual(problems, []);
      await context.close();
    }
  }
});
