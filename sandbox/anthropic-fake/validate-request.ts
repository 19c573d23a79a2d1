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
