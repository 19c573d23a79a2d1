/**
 * Checks a `POST /v1/messages` body the way the API does and returns the first problem in the
 * wording Anthropic uses (`messages.2: ...`), or null. Only the rules a tool loop can break are
 * covered; a client bug then fails a test with the same message it would get in production.
 */

const MAX_CACHE_BREAKPOINTS = 4;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function blocksOf(content: unknown): Json[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content.filter(isObject) : [];
}

function countCacheControl(body: Json): number {
  let count = 0;
  const tools = Array.isArray(body["tools"]) ? body["tools"] : [];
  for (const tool of tools) if (isObject(tool) && tool["cache_control"] != null) count += 1;
  for (const block of blocksOf(body["system"])) if (block["cache_control"] != null) count += 1;
  const messages = Array.isArray(body["messages"]) ? body["messages"] : [];
  for (const message of messages) {
    if (!isObject(message)) continue;
    for (const block of blocksOf(message["content"])) if (block["cache_control"] != null) count += 1;
  }
  return count;
}

function validateTools(tools: unknown): string | null {
  if (tools === undefined) return null;
  if (!Array.isArray(tools)) return "tools: Input should be a valid list";
  const names = new Set<string>();
  for (const [index, tool] of tools.entries()) {
    if (!isObject(tool) || typeof tool["name"] !== "string") return `tools.${index}.name: Field required`;
    if (!/^[a-zA-Z0-9_-]{1,128}$/.test(tool["name"])) {
      return `tools.${index}.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`;
    }
    if (!isObject(tool["input_schema"])) return `tools.${index}.input_schema: Field required`;
    if (names.has(tool["name"])) return "tools: Tool names must be unique.";
    names.add(tool["name"]);
  }
  return null;
}

const IMAGE_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"];
/** The first bytes of each image type, as the API checks them against the declared media type. */
const IMAGE_MAGIC: Record<string, (bytes: Buffer) => boolean> = {
  "image/png": (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  "image/jpeg": (b) => b[0] === 0xff && b[1] === 0xd8,
  "image/gif": (b) => b.subarray(0, 4).toString("latin1") === "GIF8",
  "image/webp": (b) =>
    b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP",
};

/** An `image` block: base64 of a supported type whose bytes are that type, and only from the user. */
function validateImage(block: Json, at: string, role: unknown): string | null {
  if (role !== "user") return `${at}: image blocks are only allowed in user messages`;
  const source = block["source"];
  if (!isObject(source) || source["type"] !== "base64") {
    return `${at}.source: Input tag '${isObject(source) ? String(source["type"]) : "none"}' found using 'type' does not match any of the expected tags: 'base64'`;
  }
  const mediaType = source["media_type"];
  if (typeof mediaType !== "string" || !IMAGE_TYPES.includes(mediaType)) {
    return `${at}.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`;
  }
  const data = source["data"];
  if (typeof data !== "string" || data === "" || !/^[A-Za-z0-9+/]*={0,2}$/.test(data)) {
    return `${at}.source.base64.data: Image data is not valid base64`;
  }
  if (!IMAGE_MAGIC[mediaType]?.(Buffer.from(data, "base64"))) {
    return `${at}.source.base64: Image does not match the provided media type ${mediaType}`;
  }
  return null;
}

function toolUseIds(blocks: Json[]): string[] {
  return blocks.filter((b) => b["type"] === "tool_use").map((b) => String(b["id"]));
}

function validateMessages(messages: unknown): string | null {
  if (!Array.isArray(messages)) return "messages: Field required";
  if (messages.length === 0) return "messages: at least one message is required";
  let previousRole: unknown = null;
  let pendingToolUses: string[] = [];
  for (const [index, message] of messages.entries()) {
    if (!isObject(message)) return `messages.${index}: Input should be a valid dictionary`;
    const role = message["role"];
    if (role !== "user" && role !== "assistant") {
      return `messages.${index}.role: Input should be 'user' or 'assistant'`;
    }
    if (index === 0 && role !== "user") return 'messages: first message must use the "user" role';
    if (role === previousRole) {
      return `messages: roles must alternate between "user" and "assistant", but found multiple "${role}" roles in a row`;
    }
    const content = message["content"];
    if (typeof content !== "string" && !Array.isArray(content)) {
      return `messages.${index}.content: Input should be a valid string or list`;
    }
    const blocks = blocksOf(content);
    if (blocks.length === 0) return `messages.${index}: all messages must have non-empty content`;
    for (const [at, block] of blocks.entries()) {
      const problem =
        block["type"] === "image" ? validateImage(block, `messages.${index}.content.${at}`, role) : null;
      if (problem) return problem;
    }
    const results = blocks.filter((b) => b["type"] === "tool_result").map((b) => String(b["tool_use_id"]));
    const unexpected = results.filter((id) => !pendingToolUses.includes(id));
    if (unexpected.length > 0) {
      return `messages.${index}.content.0: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${unexpected.join(", ")}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
    }
    const missing = pendingToolUses.filter((id) => !results.includes(id));
    if (missing.length > 0) {
      return `messages.${index - 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
    }
    pendingToolUses = role === "assistant" ? toolUseIds(blocks) : [];
    previousRole = role;
  }
  // A trailing assistant turn is a prefill; its tool calls cannot be answered in this request.
  if (pendingToolUses.length > 0) {
    return `messages.${messages.length - 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${pendingToolUses.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
  }
  return null;
}

export function validateRequest(body: unknown): string | null {
  if (!isObject(body)) return "Request body must be a JSON object";
  if (typeof body["model"] !== "string" || body["model"] === "") return "model: Field required";
  const maxTokens = body["max_tokens"];
  if (maxTokens === undefined) return "max_tokens: Field required";
  if (typeof maxTokens !== "number" || !Number.isInteger(maxTokens) || maxTokens < 1) {
    return "max_tokens: Input should be a valid integer greater than or equal to 1";
  }
  const system = body["system"];
  if (system !== undefined && typeof system !== "string" && !Array.isArray(system)) {
    return "system: Input should be a valid string or list";
  }
  const problem = validateTools(body["tools"]) ?? validateMessages(body["messages"]);
  if (problem) return problem;
  const breakpoints = countCacheControl(body);
  if (breakpoints > MAX_CACHE_BREAKPOINTS) {
    return `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints}.`;
  }
  return null;
}
