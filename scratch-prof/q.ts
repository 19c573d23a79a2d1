import { comment } from "../bench/sanitize/comment.ts";
import { sanitizeUntrusted } from "../lib/prompt/sanitize.ts";
const text = comment();
for (let i = 0; i < 1500; i++) sanitizeUntrusted(text);
