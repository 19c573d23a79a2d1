/**
 * Hostile `/locus` comments delivered to the real app (hostile comments, docs/reliability.md), shared
 * by the `npm test` row and the 10,000-comment bench: a seeded generator of
 * bodies (homoglyphs, zero-width characters, shell syntax, code blocks and
 * quotes, CRLF, 64 KB arguments), each posted on its own issue by a user with
 * write or read access, so that every comment's effects can be counted
 * separately. The verdict says what the app must have done for each.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { parseCommand } from "../../lib/commands/index.ts";
import type { GitHubSimulator, RepoSeeder } from "../../sandbox/github-sim/index.ts";
import type { Repo } from "../../sandbox/github-sim/model.ts";
import { inParallel } from "./app-helpers.ts";

export interface FuzzCase {
  readonly body: string;
  readonly author: "alice" | "eve";
  /** `/locus` or its verb was altered (homoglyph, zero-width, hidden in code or a quote): never a command. */
  readonly tampered: boolean;
}

/** A file the shell payloads would create if any of them ever reached a shell. */
export function canaryPath(dir: string): string {
  return path.join(dir, "locus-fuzz-canary");
}

const HOMOGLYPHS: Record<string, string[]> = {
  o: ["\u043e", "\u03bf", "\u0585"],
  c: ["\u0441", "\u03f2"],
  u: ["\u057d", "\u03c5"],
  l: ["\u04cf", "\u0031", "\u0049"],
  s: ["\u0455"],
  r: ["\u0433"],
  n: ["\u0578"],
};
const ZERO_WIDTH = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"];

function shellPayloads(canary: string): string[] {
  return [
    `$(touch ${canary})`,
    `\`touch ${canary}\``,
    `; touch ${canary}`,
    `&& touch ${canary}`,
    `| sh -c 'touch ${canary}'`,
    `\${IFS}touch\${IFS}${canary}`,
    `--branch=main`,
    `'"; touch ${canary}; echo "`,
  ];
}

/** One way to alter a word so that it only looks the same. */
const tamper = (word: string) =>
  fc.oneof(
    fc.nat({ max: word.length - 1 }).chain((at) => {
      const letter = word[at] ?? "";
      const glyphs = HOMOGLYPHS[letter.toLowerCase()];
      return glyphs
        ? fc.constantFrom(...glyphs).map((glyph) => word.slice(0, at) + glyph + word.slice(at + 1))
        : fc.constant(`${word.slice(0, at)}\u200b${word.slice(at)}`);
    }),
    fc
      .tuple(fc.integer({ min: 1, max: word.length - 1 }), fc.constantFrom(...ZERO_WIDTH))
      .map(([at, zw]) => word.slice(0, at) + zw + word.slice(at)),
  );

const verbs = fc.constantFrom("run", "RUN", "Run", "status", "help", "rn", "runn", "run;", "run&&", "rm");
const prose = fc.oneof(
  fc.constant(""),
  fc.constantFrom("Please do this.\n", "LGTM\n", "Thanks!\r\n", "> quoted\n", "- item\n"),
  fc.string({ maxLength: 40 }).map((text) => `${text}\n`),
);

export function fuzzCases(canary: string): fc.Arbitrary<FuzzCase> {
  const argument = fc.oneof(
    fc.constant(""),
    fc.constantFrom(...shellPayloads(canary)).map((payload) => ` ${payload}`),
    fc.string({ maxLength: 60 }).map((text) => ` ${text}`),
    fc.integer({ min: 1_000, max: 64_000 }).map((size) => ` ${"x".repeat(size)}`),
  );
  // Valid runs are common enough that every sample dispatches many times.
  const plain = fc
    .tuple(
      fc.constantFrom("/locus", "/LOCUS", "  /locus"),
      fc.oneof(
        { weight: 2, arbitrary: fc.constantFrom("run", "RUN", "Run") },
        { weight: 3, arbitrary: verbs },
      ),
      fc.oneof({ weight: 2, arbitrary: fc.constant("") }, { weight: 3, arbitrary: argument }),
    )
    .map(([slash, verb, arg]) => ({ line: `${slash} ${verb}${arg}`, tampered: false }));
  const altered = fc.oneof(
    fc.tuple(tamper("/locus"), verbs, argument).map(([slash, verb, arg]) => `${slash} ${verb}${arg}`),
    fc.tuple(tamper("run"), argument).map(([verb, arg]) => `/locus ${verb}${arg}`),
    fc.tuple(verbs, argument).map(([verb, arg]) => "```\n/locus " + verb + arg + "\n```"),
    fc.tuple(verbs, argument).map(([verb, arg]) => `> /locus ${verb}${arg}`),
    fc.tuple(verbs, argument).map(([verb, arg]) => `<!-- /locus ${verb}${arg} -->`),
    fc.tuple(verbs, argument).map(([verb, arg]) => `\`/locus ${verb}${arg}\``),
  );
  const line = fc.oneof(
    { weight: 3, arbitrary: plain },
    { weight: 2, arbitrary: altered.map((text) => ({ line: text, tampered: true })) },
  );
  return fc
    .record({
      before: prose,
      command: line,
      after: prose,
      crlf: fc.boolean(),
      author: fc.constantFrom("alice" as const, "eve" as const),
    })
    .map(({ before, command, after, crlf, author }) => {
      const body = `${before}${command.line}\n${after}`.slice(0, 65_536);
      return { body: crlf ? body.replace(/\n/g, "\r\n") : body, author, tampered: command.tampered };
    });
}

export function sampleCases(count: number, seed: number, canary: string): FuzzCase[] {
  return fc.sample(fuzzCases(canary), { numRuns: count, seed });
}

export interface FuzzVerdict {
  readonly comments: number;
  readonly deliveries: number;
  /** Deliveries answered other than 2xx (a 5xx or a dropped connection among them). */
  readonly failedDeliveries: number;
  readonly dispatches: number;
  readonly expectedDispatches: number;
  /** Comments whose dispatch count differs from the expected one (0 or 1). */
  readonly wrongDispatch: number;
  /** Comments that got more than one reply from Locus. */
  readonly repliedTwice: number;
  /** Tampered or hidden commands that dispatched anyway. */
  readonly tamperedDispatched: number;
  readonly shellReached: boolean;
}

/** Where a case's comment went. */
export interface Posted {
  readonly repo: Repo;
  readonly issue: number;
}

/**
 * Seeds one issue per case (spread over `repos` in turn, each its own installation so their
 * write lanes run side by side) and posts each case's comment on the simulator with its webhook
 * held; then sends the simulator's signed deliveries to `webhookUrl`, `parallel` at a time, as
 * GitHub does. Answers where each comment went.
 */
export async function postCases(
  sim: GitHubSimulator,
  webhookUrl: string,
  repos: readonly RepoSeeder[],
  cases: readonly FuzzCase[],
  parallel: number,
): Promise<Posted[]> {
  const posted: Posted[] = [];
  const held = sim.webhooks.deliveries.length;
  sim.webhooks.url = undefined;
  try {
    for (let i = 0; i < cases.length; i++) {
      const seeder = repos[i % repos.length];
      const fuzz = cases[i];
      if (!seeder || !fuzz) throw new Error("no repository to post in");
      const issue = (await seeder.issue({ title: `Fuzz ${i}` })).number;
      await seeder.comment(issue, fuzz.body, { as: fuzz.author, webhooks: true });
      posted.push({ repo: seeder.repo, issue });
    }
    await sim.webhooks.drain();
  } finally {
    sim.webhooks.url = webhookUrl;
  }
  const deliveries = sim.webhooks.deliveries.slice(held);
  await inParallel(deliveries, parallel, async (delivery) => {
    const response = await fetch(webhookUrl, {
      method: "POST",
      headers: delivery.headers,
      body: delivery.body,
    });
    await response.arrayBuffer();
    delivery.status = response.status;
  });
  return posted;
}

/** What happened for each case, from the simulator's record (runs, comments, deliveries). */
export function judge(
  sim: GitHubSimulator,
  cases: readonly FuzzCase[],
  posted: readonly Posted[],
  canary: string,
): FuzzVerdict {
  const botLogin = sim.app.botLogin;
  const dispatchesOf = new Map<string, number>();
  const repliesOf = new Map<string, number>();
  let dispatches = 0;
  for (const repo of sim.store.repos.values()) {
    for (const run of repo.runs) {
      const key = `${repo.owner}/${repo.name}#${run.inputs["issue"] ?? ""}`;
      dispatchesOf.set(key, (dispatchesOf.get(key) ?? 0) + 1);
      dispatches += 1;
    }
    for (const comment of repo.comments) {
      if (comment.body.startsWith("<!-- locus:status -->") || comment.author !== botLogin) continue;
      const key = `${repo.owner}/${repo.name}#${comment.issueNumber}`;
      repliesOf.set(key, (repliesOf.get(key) ?? 0) + 1);
    }
  }
  let expectedDispatches = 0;
  let wrongDispatch = 0;
  let repliedTwice = 0;
  let tamperedDispatched = 0;
  cases.forEach((fuzz, index) => {
    const where = posted[index];
    const key = where ? `${where.repo.owner}/${where.repo.name}#${where.issue}` : "";
    const parsed = parseCommand(fuzz.body);
    const runs = parsed.kind === "command" && parsed.command.name === "run" && fuzz.author === "alice";
    const dispatched = dispatchesOf.get(key) ?? 0;
    if (runs) expectedDispatches += 1;
    if (dispatched !== (runs ? 1 : 0)) wrongDispatch += 1;
    if (fuzz.tampered && dispatched > 0) tamperedDispatched += 1;
    if ((repliesOf.get(key) ?? 0) > 1) repliedTwice += 1;
  });
  const deliveries = sim.webhooks.deliveries.filter(
    (d) =>
      d.event === "issue_comment" &&
      (d.payload["sender"] as { login?: string } | undefined)?.login !== botLogin,
  );
  return {
    comments: cases.length,
    deliveries: deliveries.length,
    failedDeliveries: deliveries.filter((d) => d.status === null || d.status < 200 || d.status >= 300).length,
    dispatches,
    expectedDispatches,
    wrongDispatch,
    repliedTwice,
    tamperedDispatched,
    shellReached: existsSync(canary),
  };
}
