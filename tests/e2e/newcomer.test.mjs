// What a Korean student, an engineer and a screen-reader user ran into
// (issue 18), each checked in both languages: the page's language throughout,
// numbers as people type them, memory units that cannot mislead, the verdict
// with its warnings, the planner when nothing fits, exports that stand on
// their own, accessibility, and a slow link.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startBrowser, open, waitForQuery, ensureArtifacts, tmathJson } from "./harness.mjs";

const env = startBrowser();

// Names, symbols and units that stay as they are on the Korean page.
const KEEP = new Set([
  "GPU", "GPUs", "CPU", "NVIDIA", "AMD", "SXM", "PCIe", "CUDA", "NVLink", "InfiniBand", "TFLOP", "FLOPs", "GB", "GiB", "MiB", "MB",
  "ZeRO", "ZeRO-R", "MoE", "TSP", "FSDP", "AdamW", "Adam", "SGD", "Megatron", "DeepSpeed", "EleutherAI", "CC", "BY", "PNG", "SVG",
  "JSON", "CSV", "USD", "NaN", "A100", "H100", "H200", "H800", "B200", "MI300X", "MI325X", "L40S", "RTX", "GeForce", "Instinct",
  "V100", "Llama", "Mistral", "Mixtral", "DeepSeek-V3", "DeepSeek", "Pythia", "GPT", "GPT-3", "GPT-NeoX", "NeoX", "Qwen",
  "Gemma", "LLaMA", "MT-NLG", "NCCL", "nvidia-smi", "cp", "ep", "etp",
  // Names of tools, papers and files (the validation table, the config reader), and PyTorch's
  // counters as its API spells them, in parentheses after the Korean.
  "Hugging", "Face", "config", "json", "PyTorch", "Kipply", "TensorBoard", "Korthikanti", "Megatron-LM", "Megatron-Core", "torchtitan", "torchtune", "GPT-2",
  "llama-recipes", "transformers", "NeMo", "torch", "compile", "DeepSeek-V2-Lite", "x7B", "x22B", "max", "allocated", "reserved",
  // The same names with a no-break hyphen (U+2011), which the word split takes apart.
  "LM", "Core", "llama", "recipes", "NVMe", "GPipe", "1F1B", "fp32", "fp16", "bf16", "fp8", "int8", "int4", "e4m3", "e5m2", "English", "FLOP", "LLM", "FlashAttention",
  // The English term in parentheses where a Korean term first appears (the glossary in i18n.rs).
  "live", "parameters", "active",
  // The article's symbols: C ≈ 6PD.
  "PD",
  // Today's shapes (issue 16): names a Korean ML reader uses as they are.
  "GQA", "MLP", "KV", "GELU", "SwiGLU", "FFN", "top-k", "Qwen2.5", "MLA", "RoPE", "YAML", "MTP", "FP8", "MFU", "Muon",
  // Serving (issue 36): the engines and the models as their sources name them, units and kernels' names.
  "gpt-fast", "torchao", "TensorRT-LLM", "vLLM", "cpp", "NIM", "Kimi-Dev-72B", "B-Instruct", "Qwen2", "ms", "GEMM", "BF16",
  // Quantized files (issue 37): formats as their tools name them.
  "GPTQ", "AWQ", "NVFP4", "MXFP4", "GGUF", "gpt-oss-20b", "gpt-oss-120b", "gpt-oss", "mxfp4", "nvfp4",
  // Sliding and hybrid models (issue 37): checkpoints as their logs name them.
  "gemma-2-2b-it", "gemma-2-9b-it", "gemma-2-27b-it", "gemma-3-27b-it", "Qwen3-Next-80B-A3B",
  // Fine-tuning (issue 38): the methods, formats, frameworks and authors as their papers name them.
  "LoRA", "QLoRA", "NF4", "LitGPT", "Answer", "AI", "fsdp", "qlora", "Hu", "Dettmers", "Biderman",
  "DPO", "PPO", "GRPO", "ms-swift", "swift", "Qwen3",
]);

/** Visible text of the page: every text node whose element shows (screen-reader text included). */
async function visibleText(page) {
  return page.evaluate(() => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      const text = n.textContent.trim();
      // Formulas are symbols; citations name papers as published.
      if (!text || !el || el.closest("script, style, noscript, option:not(:checked), code, cite")) continue;
      if (!el.checkVisibility() && !el.closest(".sr-only")) continue;
      out.push(text);
    }
    // Attributes a screen reader reads out.
    for (const el of document.querySelectorAll("[aria-label], [aria-valuetext], [title]")) {
      for (const a of ["aria-label", "aria-valuetext", "title"]) if (el.getAttribute(a)) out.push(el.getAttribute(a));
    }
    out.push(document.title);
    return out;
  });
}

function englishWords(texts) {
  return texts.flatMap((t) =>
    (t.match(/[A-Za-z][A-Za-z0-9-]*[A-Za-z0-9]/g) ?? []).filter(
      // Not a word: a model or GPU code (A100), ZeRO-3, an exponent (1.26e22), an fp8 variant.
      (w) => !KEEP.has(w) && !/^(Llama|Mistral|Mixtral)-[\w-]+$/.test(w) && !/^[A-Z]\d/.test(w) && !/^ZeRO-\d$/.test(w) && !/^e-?\d+$/.test(w) && !/^fp8-/.test(w) && w.length > 1,
    ),
  );
}

const URLS = [
  "",
  "model=llama-2-70b&seq-len=4096&dp=8&zero=3&pp=4&grad-accum=1",
  "model=deepseek-v3&gpus=256&zero=3&recompute=full&offload=optimizer",
];

test("the Korean page is Korean, the English page English, at 1360 and 390 px", async () => {
  for (const viewport of [{ width: 1360, height: 900 }, { width: 390, height: 844 }]) {
    for (const q of URLS) {
      for (const lang of ["ko", "en"]) {
        const { page, context, problems } = await open(env.browser, `${env.server.base}?${q}&lang=${lang}`, { origin: env.server.origin, viewport });
        // Every panel rendered (the lazy ones too), every formula open.
        await page.evaluate(() => document.querySelectorAll(".results > *").forEach((e) => (e.style.contentVisibility = "visible")));
        await page.evaluate(() => document.querySelectorAll("details").forEach((d) => (d.open = true)));
        await page.waitForTimeout(400);
        const texts = await visibleText(page);
        if (lang === "ko") {
          const english = englishWords(texts);
          assert.deepEqual([...new Set(english)], [], `English words on the Korean page (${q || "default"}, ${viewport.width} px)`);
        } else {
          const hangul = texts.filter((t) => /[\uac00-\ud7a3]/.test(t) && t !== "한국어");
          assert.deepEqual(hangul, [], `Hangul on the English page (${q || "default"})`);
          assert.doesNotMatch(await page.title(), /[\uac00-\ud7a3]/);
        }
        assert.deepEqual(problems, []);
        await context.close();
      }
    }
  }
});

test("Korean words are never broken in the middle", async () => {
  const { page, context } = await open(env.browser, `${env.server.base}?lang=ko&model=llama-2-70b&dp=8&zero=3`, {
    origin: env.server.origin,
    viewport: { width: 390, height: 844 },
  });
  const breaks = await page.evaluate(() => getComputedStyle(document.body).wordBreak);
  assert.equal(breaks, "keep-all");
  // A word of a label never splits across lines: each line box ends at a space.
  const split = await page.evaluate(() => {
    const bad = [];
    for (const el of document.querySelectorAll("label, legend, h1, h2, p, li, th, td, dt, button")) {
      const text = el.textContent;
      if (!/[\uac00-\ud7a3]/.test(text) || !el.checkVisibility()) continue;
      const range = document.createRange();
      for (const node of el.childNodes) {
        if (node.nodeType !== 3) continue;
        for (let i = 1; i < node.length; i++) {
          const [a, b] = [node.data[i - 1], node.data[i]];
          if (!/[\uac00-\ud7a3]/.test(a) || !/[\uac00-\ud7a3]/.test(b)) continue;
          range.setStart(node, i - 1);
          range.setEnd(node, i);
          const r1 = range.getBoundingClientRect();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const r2 = range.getBoundingClientRect();
          if (r2.top > r1.top + r1.height / 2) bad.push(node.data.slice(Math.max(0, i - 4), i + 4));
        }
      }
    }
    return bad;
  });
  assert.deepEqual(split, []);
  await context.close();
});

test("numbers as people type them: a Korean input method, spaces, grouped thousands, 억 and 조", async () => {
  for (const lang of ["ko", "en"]) {
    const { page, context, problems } = await open(env.browser, `${env.server.base}?lang=${lang}`, { origin: env.server.origin });
    for (const [typed, bytes] of [["７B", 14e9], ["7 B", 14e9], ["7,000,000,000", 14e9], ["70억", 14e9], ["3.5억", 7e8]]) {
      await page.fill('input[name="params"]', typed);
      await page.press('input[name="params"]', "Enter");
      await page.waitForFunction((b) => document.querySelector('[data-testid="part-model"]').dataset.bytes === String(b), bytes);
    }
    await page.fill('input[name="tokens"]', "1.4조");
    await page.press('input[name="tokens"]', "Enter");
    await waitForQuery(page, (q) => q.get("tokens") === "1400000000000");
    // A bad entry: named by its label, out of range not "not a number", marked invalid, the numbers marked stale.
    for (const [typed, message] of [
      ["-5", lang === "ko" ? /파라미터 수 P: '-5'는 범위를 벗어납니다/ : /Parameters P: '-5' is out of range/],
      ["1e400", lang === "ko" ? /너무 큽니다/ : /too large/],
      ["banana", lang === "ko" ? /숫자가 아닙니다/ : /not a number/],
    ]) {
      await page.fill('input[name="params"]', typed);
      await page.press('input[name="params"]', "Enter");
      await page.waitForSelector('[data-field="params"] .notes .error');
      assert.match(await page.textContent('[data-field="params"] .notes'), message);
      assert.equal(await page.getAttribute('input[name="params"]', "aria-invalid"), "true");
      assert.ok(await page.isVisible('[data-testid="summary"] [data-testid="stale"]'), "the summary says its numbers are the last valid ones");
    }
    await page.fill('input[name="params"]', "13B");
    await page.press('input[name="params"]', "Enter");
    await page.waitForFunction(() => !document.querySelector('[data-testid="stale"]'));
    assert.equal(await page.getAttribute('input[name="params"]', "aria-invalid"), "false");
    assert.deepEqual(problems, []);
    await context.close();
  }
  // The same forms in a link.
  const { page, context } = await open(env.browser, `${env.server.base}?params=${encodeURIComponent("７０억")}&tokens=${encodeURIComponent("1,400,000,000,000")}`, { origin: env.server.origin });
  assert.equal(await page.getAttribute('[data-testid="part-model"]', "data-bytes"), "14000000000");
  assert.equal(await page.$('[data-testid="url-errors"]'), null);
  await context.close();
});

test("memory units cannot mislead: the driver's capacity, the vendor's label apart, round GiB", async () => {
  for (const lang of ["ko", "en"]) {
    const { page, context, problems } = await open(env.browser, `${env.server.base}?gpu=h200&params=8.5B&lang=${lang}`, { origin: env.server.origin });
    // nvidia-smi reports 143 771 MiB for an H200.
    assert.equal(Number(await page.getAttribute('[data-testid="gpu-capacity"]', "data-bytes")), 143771 * 1048576);
    const label = await page.textContent('[data-testid="gpu-label"]');
    assert.match(label, /141 GB/);
    assert.match(label, /143,771\sMiB/);
    // 8.5B × 16 B = 136 GB + activations: compared with 150.8 GB, not with the label's 141.
    assert.match(await page.textContent('[data-testid="gpu-capacity"] td'), /151\sGB/);
    // The driver's MiB in GiB, shown to three decimals (the state keeps the exact value).
    assert.equal(await page.inputValue('input[name="gpu-mem"]'), String(Math.round((143771 / 1024) * 1000) / 1000));
    await page.selectOption('select[name="units"]', "gib");
    await page.waitForFunction(() => document.querySelector('[data-testid="gpu-capacity"] td').textContent.includes("GiB"));
    const texts = (await visibleText(page)).join("\n");
    assert.doesNotMatch(texts, /(\d+(?:\.\d+)?)\sGiB\s=\s\1\sGiB/, "no label says 80.0 GiB = 80.0 GiB");
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test("the verdict carries the warnings that change its meaning; the bubble is a share of the step", async () => {
  for (const [lang, count, share] of [["ko", "경고 2개", "(스텝 대비)"], ["en", "2 warnings", "of the step"]]) {
    const q = `model=llama-2-13b&tp=2&pp=4&dp=2&zero=2&grad-accum=1&recompute=full&lang=${lang}`;
    const { page, context, problems } = await open(env.browser, `${env.server.base}?${q}`, { origin: env.server.origin });
    const items = await page.$$eval('[data-testid="qualifiers"] li', (l) => l.map((e) => e.textContent));
    assert.equal(items.length, 2, `${items}`);
    assert.match(await page.textContent('[data-testid="warning-count"]'), new RegExp(count));
    // p = 4, m = 1: the pipeline idles 3/4 of the step (not "300 %").
    assert.equal(Number(await page.getAttribute('[data-testid="bubble"]', "data-value")), 0.75);
    assert.match(await page.textContent('[data-testid="bubble"] dd'), new RegExp(`^75\\.0% ${share.replace(/[()]/g, "\\$&")}`));
    if (lang === "en") assert.match(items.join(" "), /1 micro-batch for 4 pipeline stages/);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test("on the phone the GPU count and the ZeRO stage are near the top; N sets d", async () => {
  const { page, context, problems } = await open(env.browser, `${env.server.base}?lang=ko&tp=2`, { origin: env.server.origin, viewport: { width: 390, height: 844 } });
  for (const name of ["gpus", "zero"]) {
    const top = await page.$eval(`[name="${name}"]`, (e) => e.getBoundingClientRect().top + scrollY);
    assert.ok(top < 844 * 1.2, `${name} at ${top} px`);
  }
  await page.fill('input[name="gpus"]', "8");
  await page.press('input[name="gpus"]', "Enter");
  await page.waitForFunction(() => document.querySelector('input[name="dp"]').value === "4");
  assert.deepEqual(problems, []);
  await context.close();
});

test("when nothing fits, the calculator and the planner say what would, and one click applies it", async () => {
  for (const lang of ["ko", "en"]) {
    const q = `model=llama-2-70b&seq-len=4096&dp=8&zero=3&lang=${lang}`;
    const { page, context, problems } = await open(env.browser, `${env.server.base}?${q}`, { origin: env.server.origin });
    const remedies = page.locator('section[data-view="memory"] [data-testid="remedies"] button');
    assert.ok((await remedies.count()) >= 3);
    // The one that fits: more GPUs with full recomputation.
    const fitting = page.locator('section[data-view="memory"] [data-testid="remedies"] li.ok button').last();
    await fitting.click();
    await page.waitForFunction(() => document.querySelector('[data-testid="fits"]').dataset.fits === "true");
    const after = await waitForQuery(page, (q) => q.get("recompute") === "full");
    assert.equal(Number(after.get("dp")) % 8, 0, "whole nodes");
    // The planner on 8 A100s of 40 GB: nothing fits; its remedies do.
    await page.goto(`${env.server.base}?model=llama-3-70b&seq-len=8192&gpu=a100-40gb&dp=8&lang=${lang}`);
    await page.waitForSelector('section[data-view="planner"] [data-testid="remedies"] button', { state: "attached", timeout: 10000 });
    const buttons = page.locator('section[data-view="planner"] [data-testid="remedies"] button');
    const n = await buttons.count();
    assert.ok(n >= 1);
    await buttons.last().scrollIntoViewIfNeeded();
    await buttons.last().click();
    await page.waitForFunction(() => document.querySelector('[data-testid="fits"]').dataset.fits === "true");
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test("\"Use it\" keeps the global batch and whole nodes", async () => {
  const { page, context, problems } = await open(env.browser, `${env.server.base}?model=llama-3-405b&gpu=h100-80gb&lang=en`, { origin: env.server.origin });
  await page.locator('section[data-view="planner"] [data-testid="min-gpus"] button').click();
  const q = await waitForQuery(page, (q) => q.has("tp"));
  const [t, p, d, b, m] = ["tp", "pp", "dp", "micro-batch", "grad-accum"].map((k) => Number(q.get(k) ?? 1));
  const n = t * p * d;
  assert.ok(n <= 8 || n % 8 === 0, `${n} GPUs: whole nodes`);
  assert.equal(b * m * d, 2048, "the planner's global batch, exactly");
  assert.deepEqual(problems, []);
  await context.close();
});

test("exports stand on their own: a PNG with title, layout, legend, verdict and source; CSV keys once; JSON with the whole state", async () => {
  const q = "model=llama-2-70b&seq-len=4096&dp=16&zero=3&recompute=full&lang=ko&units=gib";
  const { page, context, problems } = await open(env.browser, `${env.server.base}?${q}`, { origin: env.server.origin });
  const grab = async (kind) => {
    const [download] = await Promise.all([page.waitForEvent("download"), page.click(`button[data-export="${kind}"]`)]);
    return fs.readFileSync(await download.path());
  };
  const png = await grab("png");
  fs.writeFileSync(path.join(ensureArtifacts(), "export.png"), png);
  const chart = await page.$eval('[data-testid="memory-chart"]', (c) => [c.width.baseVal.value, c.height.baseVal.value]);
  const [w, h] = [png.readUInt32BE(16), png.readUInt32BE(20)];
  assert.ok(w > chart[0] && h > chart[1] * 1.2, `the PNG (${w}×${h}) frames the chart (${chart}) with its text`);
  // The SVG export is one standalone document: it parses, and its bars carry the page's bytes.
  const svg = (await grab("svg")).toString();
  fs.writeFileSync(path.join(ensureArtifacts(), "export.svg"), svg);
  const parsed = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, "image/svg+xml");
    if (doc.querySelector("parsererror")) return { error: doc.querySelector("parsererror").textContent };
    const bytes = (d) => [...d.querySelectorAll("rect[data-bytes]")].map((r) => r.getAttribute("data-part") + "=" + r.getAttribute("data-bytes"));
    return { exported: bytes(doc), page: bytes(document.querySelector('[data-testid="memory-chart"]')),
      text: doc.documentElement.textContent };
  }, svg);
  assert.equal(parsed.error, undefined, parsed.error);
  assert.ok(parsed.page.length >= 4, parsed.page.join(" "));
  assert.deepEqual(parsed.exported, parsed.page);
  assert.match(parsed.text, /트랜스포머 수학 계산기[\s\S]*출처: 트랜스포머 수학 101/, "the export has its Korean title and source");
  const json = JSON.parse(await grab("json"));
  assert.deepEqual(Object.keys(json), ["query", "state", "result"]);
  assert.equal(json.state.lang, "ko");
  assert.equal(json.state.units, "gib");
  assert.equal(json.state.model, "llama-2-70b");
  assert.deepEqual(json.result, tmathJson([...new URLSearchParams(q).entries()].filter(([k]) => !["lang", "units"].includes(k))));
  const csv = (await grab("csv")).toString().trim().split("\n").slice(1).map((l) => l.split(",")[0]);
  assert.equal(new Set(csv).size, csv.length, "each key once");
  assert.deepEqual(problems, []);
  await context.close();
});

test("accessible: sliders speak in words, one Tab stop per number, sweeps have tables, exports outside the presets' landmark", async () => {
  for (const [lang, spoken] of [["en", "7 billion parameters"], ["ko", "파라미터 70억"]]) {
    const { page, context, problems } = await open(env.browser, `${env.server.base}?lang=${lang}`, { origin: env.server.origin });
    assert.equal(await page.getAttribute('input[type="range"][data-key="params"]', "aria-valuetext"), spoken);
    assert.equal(await page.getAttribute('input[type="range"][data-key="params"]', "tabindex"), "-1");
    assert.equal(await page.$$eval("nav [data-export]", (e) => e.length), 0);
    await page.evaluate(() => document.querySelector('section[data-view="sweeps"]').scrollIntoView());
    await page.waitForSelector('[data-testid="sweep-gpus-table"] tbody tr', { state: "attached" });
    const rows = await page.$$eval('[data-testid="sweep-gpus-table"] tbody tr', (r) => r.length);
    const cols = await page.$$eval('[data-testid="sweep-gpus-table"] thead th', (r) => r.length);
    assert.ok(rows >= 5 && cols === 5, `${rows} rows × ${cols} columns (N and ZeRO 0–3)`);
    // The skip link jumps over the controls.
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement.getAttribute("href")), "#results");
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test("on a 1.6 Mbps link the page shows its frame and a loading line in the reader's language before the wasm arrives", async () => {
  for (const [lang, text] of [["ko", "계산기를 불러오는 중"], ["en", "Loading the calculator"]]) {
    const context = await env.browser.newContext({ viewport: { width: 1360, height: 900 }, locale: lang === "ko" ? "ko-KR" : "en-US" });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    });
    await page.goto(env.server.base, { waitUntil: "domcontentloaded" });
    assert.equal(await page.getAttribute("html", "lang"), lang);
    assert.match(await page.textContent("#skeleton .loading"), new RegExp(text));
    assert.ok(await page.isVisible("#skeleton header h1"));
    if (lang === "en") assert.doesNotMatch(await page.title(), /[\uac00-\ud7a3]/);
    await page.screenshot({ path: path.join(ensureArtifacts(), `slow-link-${lang}.png`) });
    // Then the app replaces it.
    await page.waitForSelector('[data-testid="summary"]', { timeout: 30000 });
    assert.equal(await page.$("#skeleton"), null);
    await context.close();
  }
});
