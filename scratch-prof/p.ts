import MarkdownIt from "markdown-it";
import { comment } from "/work/integ/bench/sanitize/comment.ts";
import { sanitizeUntrusted, redactSecrets } from "/work/integ/lib/prompt/sanitize.ts";
import { scanMarkdown } from "/work/integ/lib/prompt/markdown-scan.ts";
import { visibleMarkdown } from "/work/integ/lib/prompt/visible-markdown.ts";
import { boundMarkdown } from "/work/integ/lib/prompt/markdown-bounds.ts";
const md = new MarkdownIt({ html: true });
const text = comment();
function t(name: string, f: () => unknown) {
  for (let i = 0; i < 200; i++) f();
  const xs: number[] = [];
  for (let i = 0; i < 400; i++) { const s = performance.now(); f(); xs.push(performance.now() - s); }
  xs.sort((a, b) => a - b);
  console.log(name.padEnd(20), xs[200].toFixed(3));
}
const out = visibleMarkdown(text);
t("mdit parse", () => md.parse(text, {}));
t("scan", () => scanMarkdown(text));
t("scan out", () => scanMarkdown(out));
t("bound", () => boundMarkdown(text));
t("visible", () => visibleMarkdown(text));
t("redact", () => redactSecrets(out));
t("sanitize", () => sanitizeUntrusted(text));
